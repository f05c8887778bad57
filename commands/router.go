package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// HandlerFunc handles one interaction. It answers through r and returns an
// error when it did not do what was asked; the App turns that error into an
// ephemeral reply.
type HandlerFunc func(ctx context.Context, r *Request) error

// Router dispatches interactions: application commands and autocomplete by
// their command path ("go/play"), components by their custom ID matched
// against patterns such as "game/{id}/pass/{move}".
type Router struct {
	commands     map[string]HandlerFunc
	autocomplete map[string]HandlerFunc
	components   []route
}

type route struct {
	segments []string
	h        HandlerFunc
}

// NewRouter returns an empty router.
func NewRouter() *Router {
	return &Router{commands: map[string]HandlerFunc{}, autocomplete: map[string]HandlerFunc{}}
}

// Command registers h for a command path: the command name followed by its
// subcommand group and subcommand, joined with "/" ("go/challenge").
func (rt *Router) Command(path string, h HandlerFunc) { rt.commands[path] = h }

// Autocomplete registers h for autocomplete requests on a command path.
func (rt *Router) Autocomplete(path string, h HandlerFunc) { rt.autocomplete[path] = h }

// Component registers h for custom IDs matching pattern: segments separated
// by "/", where "{name}" matches any one non-empty segment and is available
// to the handler as r.Param("name").
func (rt *Router) Component(pattern string, h HandlerFunc) {
	rt.components = append(rt.components, route{segments: strings.Split(pattern, "/"), h: h})
}

// Commands returns the registered command paths, sorted (for tests and help).
func (rt *Router) Commands() []string {
	var out []string
	for p := range rt.commands {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// HasCommand reports whether a command of that path ("draughts/resign")
// has a handler.
func (rt *Router) HasCommand(path string) bool {
	_, ok := rt.commands[path]
	return ok
}

// Dispatch finds the handler for r and runs it. It returns ErrUnknown for an
// interaction no handler matches.
func (rt *Router) Dispatch(ctx context.Context, r *Request) error {
	it := r.Interaction
	switch it.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		table, kind := rt.commands, "command"
		if it.Type == discordgo.InteractionApplicationCommandAutocomplete {
			table, kind = rt.autocomplete, "autocomplete"
		}
		path, opts := commandPath(it.ApplicationCommandData())
		h, ok := table[path]
		if !ok {
			return fmt.Errorf("%s %q: %w", kind, path, ErrUnknown)
		}
		r.Path, r.options = path, opts
		return h(ctx, r)
	case discordgo.InteractionMessageComponent:
		id := it.MessageComponentData().CustomID
		for _, rte := range rt.components {
			if params, ok := match(rte.segments, id); ok {
				r.Path, r.params = id, params
				return rte.h(ctx, r)
			}
		}
		return fmt.Errorf("component %q: %w", id, ErrUnknownComponent)
	}
	return fmt.Errorf("interaction type %v: %w", it.Type, ErrUnknown)
}

// commandPath walks subcommand groups and subcommands down to the leaf
// options: "go/play" and the options of play.
func commandPath(d discordgo.ApplicationCommandInteractionData) (string, []*discordgo.ApplicationCommandInteractionDataOption) {
	path := []string{d.Name}
	opts := d.Options
	for len(opts) == 1 && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand ||
		opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
		path = append(path, opts[0].Name)
		opts = opts[0].Options
	}
	return strings.Join(path, "/"), opts
}

func match(pattern []string, id string) (map[string]string, bool) {
	segs := strings.Split(id, "/")
	if len(segs) != len(pattern) {
		return nil, false
	}
	var params map[string]string
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[p[1:len(p)-1]] = segs[i]
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}
