# syntax=docker/dockerfile:1
#
# gobot in a container: a static binary on distroless, running as an
# unprivileged user, with the bbolt database on a volume.
#
#   docker build -t gobot .
#   docker run -d --name gobot -e DISCORD_TOKEN=... -v gobot-data:/data gobot
#
# HTTP interactions mode (Discord POSTs to the container on port 8080):
#
#   docker run -d -e GOBOT_MODE=http -e DISCORD_TOKEN=... -e DISCORD_PUBLIC_KEY=... \
#       -p 8080:8080 -v gobot-data:/data gobot
#
# The token can also come from a file (a Docker or Kubernetes secret):
# -e DISCORD_TOKEN_FILE=/run/secrets/discord_token.

# ---- build ------------------------------------------------------------------
FROM golang:1.26-bookworm AS build
WORKDIR /src

# Dependencies first, so that code changes reuse this layer.
COPY go.mod go.sum ./
RUN go mod download && go mod verify

# Only the packages of the fixed layout: no .git, databases or local files
# end up in the image.
COPY cmd ./cmd
COPY bots ./bots
COPY commands ./commands
COPY config ./config
COPY engine ./engine
COPY internal ./internal
COPY render ./render
COPY storage ./storage
COPY web ./web

# CGO_ENABLED=0: a static binary that needs no libc in the final image.
# Without .git the build has no commit of its own: pass it, for the start-up
# line and `gobot version` (else "unknown"):
#   docker build --build-arg GOBOT_REVISION=$(git rev-parse HEAD) -t gobot .
ARG GOBOT_REVISION=unknown
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -buildvcs=false \
      -ldflags="-s -w -X main.revision=${GOBOT_REVISION}" -o /out/gobot ./cmd/gobot \
 && mkdir -p /out/data

# ---- run --------------------------------------------------------------------
# distroless/static: CA certificates (for https://discord.com), tzdata, and a
# "nonroot" user (65532); no shell, no package manager.
FROM gcr.io/distroless/static-debian12:nonroot

COPY --from=build /out/gobot /usr/local/bin/gobot
# The volume's mount point, owned by the unprivileged user so that a fresh
# named volume is writable.
COPY --from=build --chown=65532:65532 /out/data /data

# The database lives on the volume; /healthz is served on 8080 in both
# modes (and Discord's interactions endpoint too when GOBOT_MODE=http).
ENV GOBOT_DB=/data/gobot.db \
    GOBOT_HTTP_ADDR=:8080 \
    GOBOT_LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080

USER 65532:65532

# GET /healthz answers 200 while the database is usable. `gobot healthcheck`
# asks it over loopback on the port of GOBOT_HTTP_ADDR (the image has no
# shell or wget, and needs none).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/usr/local/bin/gobot", "healthcheck"]

# SIGTERM (docker stop) lets moves in flight finish within
# GOBOT_SHUTDOWN_TIMEOUT (8s by default, below docker stop's 10s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gobot"]
CMD ["run"]
