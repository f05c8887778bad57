package goroom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/bots"
	"github.com/gobot-dev/gobot/bots/review"
	"github.com/gobot-dev/gobot/commands"
	"github.com/gobot-dev/gobot/engine"
	"github.com/gobot-dev/gobot/engine/game"
	"github.com/gobot-dev/gobot/render"
	"github.com/gobot-dev/gobot/storage"
)

// Game reviews (/go review), the review in SGF (/go sgf review:true) and
// score estimates (/go estimate).

// Reviewer is what /go review and /go estimate need from the bots (a review.Evaluator: the
// built-in search or a GTP program). Both
// wait for a search slot in the same queue as bot moves, calling onQueued
// (when not nil) with their place in it, and return when ctx ends.
type Reviewer interface {
	// Review reviews the whole game g, calling progress (when not nil)
	// with the positions judged and their total.
	Review(ctx context.Context, g *engine.Game, onQueued func(position int), progress func(done, total int)) (*review.Review, error)
	// Estimate estimates the score of g's position (see review.Estimate).
	Estimate(ctx context.Context, g *engine.Game, onQueued func(position int)) (review.ScoreEstimate, error)
}

// localReviewer reviews with an evaluator through a limiter of its own,
// one review or estimate at a time.
type localReviewer struct {
	l  *bots.Limiter
	ev review.Evaluator
}

// NewLocalReviewer returns a Reviewer that judges positions with ev, one
// review or estimate at a time (a queue of 8 more). An App whose Players
// cannot review uses one with the built-in search (review.MCTS).
func NewLocalReviewer(ev review.Evaluator) Reviewer {
	return &localReviewer{l: bots.NewLimiter(1, 8), ev: ev}
}

func (lr *localReviewer) Review(ctx context.Context, g *engine.Game, onQueued func(int), progress func(int, int)) (*review.Review, error) {
	release, err := lr.l.Acquire(ctx, onQueued)
	if err != nil {
		return nil, err
	}
	defer release()
	return review.Run(ctx, g, lr.ev, progress)
}

func (lr *localReviewer) Estimate(ctx context.Context, g *engine.Game, onQueued func(int)) (review.ScoreEstimate, error) {
	release, err := lr.l.Acquire(ctx, onQueued)
	if err != nil {
		return review.ScoreEstimate{}, err
	}
	defer release()
	return review.Estimate(ctx, g, bots.EstimatePlayouts(g.Size()), 1+int64(g.MoveCount()))
}

// progressEvery is how often a running review edits its progress message.
const progressEvery = 2 * time.Second

// A review runs under two leases in the store (storage.Lease), so that
// workers sharing it agree: one on the game, which is reviewed once at a
// time whoever asks and on whichever worker, and one on the user who
// asked, who runs one review at a time. The worker renews both while it
// reviews. When it dies they lapse, and the next sweep on any worker
// (SweepRoom) takes the game's review over: it reviews the game and answers
// the command that asked, still "Reviewing…", while its token lasts.
const (
	reviewLease      = 30 * time.Second
	reviewRenewEvery = reviewLease / 3
	// reviewTokenLife is how long a review's interaction can still be
	// answered (Discord's 15 minutes, less a margin).
	reviewTokenLife = 14 * time.Minute
	// reviewGameLeases begins the keys of the games' review leases.
	reviewGameLeases = "review/game/"
)

// reviewUserLease is the key of the lease of user's running review.
func reviewUserLease(user string) string { return "review/user/" + user }

// reviewJob is the record of a review's leases: the game and the command
// that asked for it, which a worker taking the review over answers.
// Token is a credential while it lasts.
type reviewJob struct {
	Game        string    `json:"game"`
	User        string    `json:"user"`
	Interaction string    `json:"interaction"`
	App         string    `json:"app"`
	Token       string    `json:"token"`
	Channel     string    `json:"channel"`
	Guild       string    `json:"guild,omitempty"`
	Private     bool      `json:"private,omitempty"`
	At          time.Time `json:"at"`
	// Perms (app_permissions) and Where (the channel's type, a thread's
	// parent) say whether the review may go in a thread (ThreadsHere)
	// when another worker takes it over.
	Perms int64                 `json:"perms,omitempty"`
	Where *commands.ChannelInfo `json:"where,omitempty"`
}

// interaction is the command that asked for the review, as a worker
// taking it over answers it.
func (j reviewJob) interaction() *discordgo.Interaction {
	return &discordgo.Interaction{ID: j.Interaction, AppID: j.App, Token: j.Token, ChannelID: j.Channel, GuildID: j.Guild,
		Type: discordgo.InteractionApplicationCommand, User: &discordgo.User{ID: j.User}, AppPermissions: j.Perms}
}

// reviews cancels the running reviews at once when the App shuts down.
type reviews struct {
	halt commands.Halt
}

func newReviews() *reviews { return &reviews{} }

// cmdReview reviews a finished game (game:, or the last one finished
// here): from the archive when it was reviewed before, else with the
// Reviewer, showing the queue and the progress on the way. A game without
// moves is refused: there is nothing to judge; so is a second review of
// the user's, or of the game, while one runs on any worker.
func (a *room) cmdReview(ctx context.Context, r *commands.Request) error {
	arc, err := a.FinishedGameOption(ctx, r)
	if err != nil {
		return err
	}
	if err := a.OnlyFor(a, arc, "reviews are"); err != nil {
		return err
	}
	g, err := archivedEngineGame(arc)
	if err != nil {
		return err
	}
	if g.MoveCount() == 0 {
		return commands.UserErr(commands.ErrBadOption, "That game has no moves to review.")
	}
	if rv := a.storedReview(ctx, arc); rv != nil {
		return a.postReview(ctx, r, arc, g, rv)
	}
	it := r.Interaction
	job := reviewJob{Game: arc.ID, User: r.User.ID, Interaction: it.ID, App: it.AppID, Token: it.Token,
		Channel: it.ChannelID, Guild: it.GuildID, Private: a.ShownPrivately(ctx, r, arc), At: a.Now(),
		Perms: it.AppPermissions, Where: r.Channel}
	holder := "review-" + it.ID
	keys, err := a.leaseReview(ctx, job, holder)
	if err != nil {
		return err
	}
	defer a.releaseReview(ctx, keys, holder)
	if err := r.Defer(ctx, job.Private); err != nil {
		return err
	}
	return a.runReview(ctx, r, arc, g, keys, holder)
}

// reviewRuns reports whether a review of game id is running on any worker:
// whether its game lease is held. (LapsedLeases at the end of time lists
// every lease of the key, held or not.)
func (a *room) reviewRuns(ctx context.Context, id string) bool {
	key := reviewGameLeases + id
	ls, err := a.Reviews().LapsedLeases(ctx, key, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return false
	}
	now := a.Now()
	for _, l := range ls {
		if l.Key == key && now.Before(l.Until) {
			return true
		}
	}
	return false
}

// leaseReview takes the leases of job's review, the user's then the
// game's, for holder, and returns their keys. A review of the user's, or
// of the game, that another holds (on any worker) is refused, saying so.
func (a *room) leaseReview(ctx context.Context, job reviewJob, holder string) ([]string, error) {
	rec, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	userKey, gameKey := reviewUserLease(job.User), reviewGameLeases+job.Game
	held, err := a.Reviews().TakeLease(ctx, userKey, holder, reviewLease, rec)
	if errors.Is(err, storage.ErrConflict) {
		other := "another game"
		var j reviewJob
		if held != nil && json.Unmarshal(held.Record, &j) == nil && j.Game != "" {
			other = "game `" + j.Game + "`"
		}
		return nil, commands.UserErr(commands.ErrBotBusy, fmt.Sprintf("You already have a review running (%s): wait for it to finish, then ask again.", other))
	}
	if err != nil {
		return nil, err
	}
	if _, err := a.Reviews().TakeLease(ctx, gameKey, holder, reviewLease, rec); err != nil {
		a.releaseReview(ctx, []string{userKey}, holder)
		if errors.Is(err, storage.ErrConflict) {
			return nil, commands.UserErr(commands.ErrBotBusy, fmt.Sprintf("Game `%s` is being reviewed right now, for someone who asked first: once it is done, `/go review game:%s` shows its review at once.", job.Game, job.Game))
		}
		return nil, err
	}
	return []string{userKey, gameKey}, nil
}

// releaseReview gives back holder's leases keys, even when ctx has ended.
func (a *room) releaseReview(ctx context.Context, keys []string, holder string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for _, k := range keys {
		if err := a.Reviews().ReleaseLease(ctx, k, holder); err != nil {
			a.Logger().Warn("could not release a review's lease; it lapses by itself", "lease", k, "err", err)
		}
	}
}

// renewReview renews holder's leases keys every reviewRenewEvery until
// the returned function is called.
func (a *room) renewReview(ctx context.Context, keys []string, holder string) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(reviewRenewEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			for _, k := range keys {
				if _, err := a.Reviews().TakeLease(ctx, k, holder, reviewLease, nil); err != nil && ctx.Err() == nil {
					a.Logger().Warn("could not renew a review's lease", "lease", k, "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// runReview reviews g, the game of arc, for r (deferred already) under
// holder's leases keys, which it renews meanwhile, and answers with the
// review, which it stores.
func (a *room) runReview(ctx context.Context, r *commands.Request, arc *storage.Archived, g *engine.Game, keys []string, holder string) error {
	rctx, cancel := a.reviewing.halt.With(ctx)
	defer cancel()
	defer a.renewReview(rctx, keys, holder)()

	moves := g.MoveCount()
	var last time.Time
	edit := func(text string, force bool) {
		if !force && time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		if _, err := a.Discord().EditOriginal(ctx, r.Interaction, &commands.Message{Content: text, AllowedMentions: commands.NoMentions()}); err != nil {
			a.Logger().Warn("could not show the review's progress", "game", arc.ID, "err", err)
		}
	}
	onQueued := func(pos int) {
		edit(fmt.Sprintf("Waiting for a free engine to review %s: number %d in the queue…", commands.ArchivedTitle(arc), pos), true)
	}
	progress := func(done, total int) {
		edit(progressText(min(done, moves), moves), done == 0)
	}
	rv, err := a.reviewer.Review(rctx, g, onQueued, progress)
	switch {
	case errors.Is(err, bots.ErrBusy):
		return fmt.Errorf("%w: %w", commands.ErrBotBusy, err)
	case err != nil && a.reviewing.halt.IsStopped():
		return commands.UserErr(err, "The review was stopped because I am restarting. Ask again in a minute.")
	case errors.Is(err, review.ErrNoAnalysis):
		// Asking again cannot help: the host must configure another engine.
		a.Logger().Error("the review engine cannot review games: set GOBOT_REVIEW_ENGINE to a program that speaks kata-analyze or lz-analyze, or to mcts", "err", err)
		return commands.UserErr(err, "Reviews are not available on this server: its review engine cannot analyse games. Whoever runs this gobot can choose another (GOBOT_REVIEW_ENGINE).")
	case err != nil:
		return err
	}
	if data, err := json.Marshal(rv); err != nil {
		a.Logger().Error("could not encode a review", "game", arc.ID, "err", err)
	} else if err := a.Reviews().PutGameReview(ctx, arc.ID, data); err != nil {
		a.Logger().Warn("could not store a review; the next request reviews again", "game", arc.ID, "err", err)
	}
	return a.postReview(ctx, r, arc, g, rv)
}

// SweepRoom takes over the reviews whose worker died (their game's lease
// lapsed): each runs again on this worker and answers the command that
// asked for it, unless that command can no longer be answered.
func (a *room) SweepRoom(ctx context.Context) {
	lapsed, err := a.Reviews().LapsedLeases(ctx, reviewGameLeases, a.Now())
	if err != nil {
		if ctx.Err() == nil {
			a.Logger().Warn("sweep: reviews whose worker stopped", "err", err)
		}
		return
	}
	for _, l := range lapsed {
		holder := "review-resumed-" + storage.NewID()
		if _, err := a.Reviews().TakeLease(ctx, l.Key, holder, reviewLease, nil); err != nil {
			continue // another worker took it over first
		}
		var job reviewJob
		if err := json.Unmarshal(l.Record, &job); err != nil || job.Game == "" || a.Now().Sub(job.At) >= reviewTokenLife {
			// Nobody left to answer: the next /go review of the game
			// starts it afresh.
			a.releaseReview(ctx, []string{l.Key}, holder)
			continue
		}
		a.Logger().Info("a review whose worker stopped is taken over", "game", job.Game, "worker", l.Holder)
		key := l.Key
		if !a.Spawn(func(ctx context.Context) { a.resumeReview(ctx, job, key, holder) }) {
			return // shutting down: the lease lapses, and another worker takes it
		}
	}
}

// resumeReview runs job, a review whose worker died, under holder's lease
// key, and answers the command that asked for it.
// A review stopped by a shutdown keeps its lease, which lapses, so that
// another worker (or this one once restarted) takes it over again.
func (a *room) resumeReview(ctx context.Context, job reviewJob, key, holder string) {
	ctx, cancel := a.reviewing.halt.With(ctx)
	defer cancel()
	run := ctx // ctx is reused below for the answer
	defer func() {
		if run.Err() == nil {
			a.releaseReview(run, []string{key}, holder)
		}
	}()
	r := commands.DeferredRequest(job.interaction(), a.Discord(), job.Private)
	r.Channel = job.Where
	err := func() error {
		arc, err := a.Archives().ArchivedGame(ctx, job.Game)
		if err != nil {
			return err
		}
		g, err := archivedEngineGame(arc)
		if err != nil {
			return err
		}
		if rv := a.storedReview(ctx, arc); rv != nil {
			return a.postReview(ctx, r, arc, g, rv)
		}
		return a.runReview(ctx, r, arc, g, []string{key}, holder)
	}()
	if err == nil || ctx.Err() != nil {
		return
	}
	a.Logger().Warn("a review taken over failed", "game", job.Game, "err", err)
	msg, _ := commands.ErrorMessage(err)
	ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := r.Reply(ctx, &commands.Message{Content: msg, AllowedMentions: commands.NoMentions()}); err != nil {
		a.Logger().Warn("could not answer a review taken over", "game", job.Game, "err", err)
	}
}

// progressText is the progress message of a review: "Reviewing move 84 of
// 212… ▰▰▰▰▱▱▱▱▱▱ 40%".
func progressText(done, total int) string {
	const width = 20
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	full := int(math.Round(frac * width))
	return fmt.Sprintf("Reviewing move %d of %d… `%s%s` %d%%", done, total,
		strings.Repeat("█", full), strings.Repeat("░", width-full), int(math.Round(100*frac)))
}

// storedReview returns the archived review of a game, or nil when it has
// none that this build reads (review.Current).
func (a *room) storedReview(ctx context.Context, arc *storage.Archived) *review.Review {
	id := arc.ID
	data, err := a.Reviews().GameReview(ctx, id)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			a.Logger().Warn("could not read a stored review", "game", id, "err", err)
		}
		return nil
	}
	rv := new(review.Review)
	if err := json.Unmarshal(data, rv); err != nil || !review.Current(rv.Format) {
		return nil
	}
	return rv
}

// reviewRecord is a review as it is stored with its game: the review, and
// the thread it was posted in in each channel, so that asking again there
// points to that thread rather than opening another with the same review.
// (The review's own fields come first in the JSON; a record stored before
// threads were kept reads with none.)
type reviewRecord struct {
	*review.Review
	Threads map[string]string `json:"threads,omitempty"` // channel ID -> thread ID
}

// reviewThread is the thread where game id's review was posted in channel,
// if there is one and Discord still has it; "" otherwise.
func (a *room) reviewThread(ctx context.Context, id, channel string) string {
	data, err := a.Reviews().GameReview(ctx, id)
	if err != nil {
		return ""
	}
	var rec reviewRecord
	if json.Unmarshal(data, &rec) != nil || rec.Threads[channel] == "" {
		return ""
	}
	th := rec.Threads[channel]
	if look, ok := commands.DiscordAs[interface {
		Channel(ctx context.Context, id string) (*discordgo.Channel, error)
	}](a.Discord()); ok {
		if _, err := look.Channel(ctx, th); err != nil {
			return "" // deleted (or out of reach): post the review again
		}
	}
	return th
}

// rememberThread notes that game id's stored review was posted in thread
// th of channel; a failure only means a later request posts it again.
func (a *room) rememberThread(ctx context.Context, id, channel, th string) {
	data, err := a.Reviews().GameReview(ctx, id)
	if err != nil {
		return // not stored (the store failed): nothing to note it in
	}
	var rec reviewRecord
	if err := json.Unmarshal(data, &rec); err != nil || rec.Review == nil {
		return
	}
	if rec.Threads == nil {
		rec.Threads = map[string]string{}
	}
	rec.Threads[channel] = th
	if data, err = json.Marshal(rec); err == nil {
		err = a.Reviews().PutGameReview(ctx, id, data)
	}
	if err != nil {
		a.Logger().Warn("could not note a review's thread; asking again posts it again", "game", id, "err", err)
	}
}

// archivedEngineGame replays a finished game from its record, with its
// result: a win or a draw (jigo); none for an annulled game, which has no
// winner.
func archivedEngineGame(a *storage.Archived) (*engine.Game, error) {
	g, _, err := engine.ParseSGF(a.SGF)
	if err != nil {
		return nil, fmt.Errorf("goroom: record of game %s: %w", a.ID, err)
	}
	if res, err := engine.ParseResult(a.Result); err == nil && !a.Annulled {
		if err := g.End(res); err != nil {
			return nil, fmt.Errorf("goroom: result of game %s: %w", a.ID, err)
		}
	}
	return g, nil
}

// postReview shows a review: in a new thread where gobot may start one
// (a summary with the graph, then each player's mistakes), otherwise in
// one message with every picture.
func (a *room) postReview(ctx context.Context, r *commands.Request, arc *storage.Archived, g *engine.Game, rv *review.Review) error {
	result := arc.Result
	switch {
	case commands.AnnulledOnTimeArc(arc):
		result = "annulled on time, not counted" // nobody won it, as its final board says
	case arc.Annulled && arc.Result == "Void" && !arc.AnnulledInPlay:
		result = "aborted (Void, not counted)" // as /go history says it
	case arc.Annulled:
		result = "annulled (" + result + ", not counted)"
	}
	board := fmt.Sprintf("%d×%d", arc.Size, arc.Size)
	if h := g.Handicap(); h > 0 {
		board += fmt.Sprintf(" H%d", h) // as /go sgf and /go history say it
	}
	head := fmt.Sprintf("Review of %s, %s, %s, %s", commands.ArchivedTitle(arc), board, result, commands.Plural(len(rv.Moves), "move"))
	graph, err := reviewGraph(arc, rv)
	if err != nil {
		return err
	}
	boards, err := mistakeBoards(arc, g, rv)
	if err != nil {
		return err
	}
	summary := &commands.Message{
		Content:         commands.Clip(head+" (engine: "+rv.Engine+").\n"+rv.Paragraph(), 2000),
		Files:           []commands.File{graph.file},
		Embeds:          []*discordgo.MessageEmbed{graph.embed},
		AllowedMentions: commands.NoMentions(),
		Ephemeral:       a.ShownPrivately(ctx, r, arc), // a game from elsewhere is shown to its player alone, in no thread
	}
	clean := map[engine.Color]bool{engine.Black: true, engine.White: true}
	for _, bd := range boards {
		clean[bd.color] = false
	}
	noMistake := func(c engine.Color) string {
		return fmt.Sprintf("%s %s: no move lost %.0f points or more.", stoneEmoji(c), colorName(c), review.MinPoints)
	}
	switch {
	case len(boards) == 0:
		summary.Content = commands.Clip(summary.Content+fmt.Sprintf("\nNo move lost %.0f points or more.", review.MinPoints), 2000)
	case clean[engine.Black] || clean[engine.White]:
		// Each player's mistakes are shown: one who made none is told
		// so, not left out.
		for _, c := range []engine.Color{engine.Black, engine.White} {
			if clean[c] {
				summary.Content = commands.Clip(summary.Content+"\n"+noMistake(c), 2000)
			}
		}
	}
	if r.Interaction.GuildID != "" && !summary.Ephemeral {
		if th := a.reviewThread(ctx, arc.ID, r.Interaction.ChannelID); th != "" {
			// Posted here before: the thread has it all, and a second
			// thread would repeat it.
			return r.Reply(ctx, &commands.Message{Content: commands.Clip(head+": in the thread <#"+th+">.\n"+rv.Paragraph(), 2000), AllowedMentions: commands.NoMentions()})
		}
	}
	// A thread where one can be started: not inside a thread or forum
	// post, nor where gobot may not create threads (Discord would refuse).
	if r.Interaction.GuildID != "" && !summary.Ephemeral && commands.ThreadsHere(r) {
		names := func(s game.Side) string { return commands.JoinNames(arc.Team(s), commands.PlainName) }
		th, err := a.Discord().StartThread(ctx, r.Interaction.ChannelID, commands.Clip("Review: "+names(0)+" vs "+names(1), 100))
		if err == nil {
			_, err = a.Discord().SendMessage(ctx, th.ID, summary)
		}
		if err == nil {
			for _, c := range []engine.Color{engine.Black, engine.White} {
				m := &commands.Message{Content: stoneEmoji(c) + " " + colorName(c) + "'s biggest mistakes", AllowedMentions: commands.NoMentions()}
				for _, bd := range boards {
					if bd.color == c {
						m.Files, m.Embeds = append(m.Files, bd.file), append(m.Embeds, bd.embed)
					}
				}
				if len(m.Files) == 0 {
					continue
				}
				if _, err := a.Discord().SendMessage(ctx, th.ID, m); err != nil {
					return err
				}
			}
			a.rememberThread(ctx, arc.ID, r.Interaction.ChannelID, th.ID)
			return r.Reply(ctx, &commands.Message{Content: commands.Clip(head+": in the thread <#"+th.ID+">.\n"+rv.Paragraph(), 2000), AllowedMentions: commands.NoMentions()})
		}
		a.Logger().Info("no thread for a review (or no message in it); it goes in one message", "game", arc.ID, "err", err)
	}
	for _, bd := range boards {
		summary.Files, summary.Embeds = append(summary.Files, bd.file), append(summary.Embeds, bd.embed)
	}
	return r.Reply(ctx, summary)
}

// picture is an attached image with the embed that shows it.
type picture struct {
	file  commands.File
	embed *discordgo.MessageEmbed
	color engine.Color
}

// reviewGraph draws the win-rate graph with the three biggest swings.
func reviewGraph(a *storage.Archived, rv *review.Review) (picture, error) {
	wr := rv.Winrates()
	marks := rv.Swings(3)
	var buf bytes.Buffer
	if err := render.WinrateGraph(&buf, wr, render.GraphOptions{Marks: marks}); err != nil {
		return picture{}, fmt.Errorf("goroom: graph of game %s: %w", a.ID, err)
	}
	name := "review-" + a.ID + "-graph.png"
	var swings []string
	for i, m := range marks {
		swings = append(swings, fmt.Sprintf("%d: move %d (%s %s)", i+1, m, stoneEmoji(rv.Moves[m-1].Color), rv.Moves[m-1].Move))
	}
	desc := "Black's winning chance after every move."
	if len(swings) > 0 {
		desc += " Biggest swings: " + strings.Join(swings, ", ") + "."
	} else {
		desc += fmt.Sprintf(" No big swings: no move changed it by %.0f%% or more.", 100*review.MinSwing)
	}
	return picture{
		file:  commands.File{Name: name, ContentType: "image/png", Description: commands.Clip(render.WinrateAlt(wr, marks), 1024), Data: buf.Bytes()},
		embed: &discordgo.MessageEmbed{Title: "Winning chance", Description: desc, Color: commands.ColorBlack, Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}},
	}, nil
}

// mistakeBoards draws each mistake of the review: the position before it,
// the move played crossed out and the preferred line numbered.
func mistakeBoards(a *storage.Archived, g *engine.Game, rv *review.Review) ([]picture, error) {
	if len(rv.Mistakes) == 0 {
		return nil, nil
	}
	positions, err := review.Positions(g)
	if err != nil {
		return nil, err
	}
	var out []picture
	for _, m := range rv.Mistakes {
		if m.Number < 1 || m.Number >= len(positions) {
			continue
		}
		before := positions[m.Number-1]
		played, err := engine.ParseMove(m.Color, m.Move, g.Size())
		if err != nil {
			return nil, err
		}
		pv := parseLine(m.Color, m.PV, g.Size())
		var buf bytes.Buffer
		prev, _ := before.LastMove()
		opts := render.VariationOptions{Played: played, PV: pv, Previous: prev}
		if err := render.Variation(&buf, before.Board(), opts); err != nil {
			return nil, fmt.Errorf("goroom: mistake %d of game %s: %w", m.Number, a.ID, err)
		}
		name := fmt.Sprintf("review-%s-move%d.png", a.ID, m.Number)
		line := mistakeLine(m)
		if notes := render.LineNotes(before.Board(), opts); notes != "" {
			line += " (line: " + notes + ")"
		}
		did := "played " + m.Move + " (crossed out)"
		if played.Kind == engine.Pass {
			did = "passed"
		}
		answered := ""
		if prev.Kind == engine.Place {
			answered = fmt.Sprintf(", answering %s %s (marked as the last move)", colorName(prev.Color), prev.Point)
		}
		preferred := fmt.Sprintf("the engine preferred %s (ringed), then the numbered line %s", m.Best, strings.Join(m.PV, " "))
		if m.Best == "pass" {
			// A pass has no point to ring.
			preferred = "better: pass"
			if len(m.PV) > 1 {
				preferred += ", then the line " + strings.Join(m.PV[1:], " ")
			}
		}
		alt := fmt.Sprintf("%d×%d board before move %d%s: %s %s; %s.",
			g.Size(), g.Size(), m.Number, answered, colorName(m.Color), did, preferred)
		out = append(out, picture{
			file:  commands.File{Name: name, ContentType: "image/png", Description: commands.Clip(alt, 1024), Data: buf.Bytes()},
			embed: &discordgo.MessageEmbed{Description: line, Color: embedColor(m.Color), Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}},
			color: m.Color,
		})
	}
	return out, nil
}

// mistakeLine is a mistake in one line: "Move 37 · ⚫ C4 · 9 points lost,
// Black's winning chance 62% → 38% · better: D5". The points lost rank the
// mistakes and come first. The chance is the mover's, which the line
// names, as the graph above gives Black's; it is shown only when it fell:
// a move's points are measured over the positions around it (and judged
// again), so the chance just after the move may even be higher, which
// beside "points lost" would read as a contradiction ("Move 14 · ⚪ pass ·
// 6 points lost · better: E7").
func mistakeLine(m review.Mistake) string {
	lost := fmt.Sprintf("%.0f points lost", m.Loss)
	if before, after := pct(m.Before), pct(m.After); math.Round(100*m.After) < math.Round(100*m.Before) {
		lost += fmt.Sprintf(", %s's winning chance %s → %s", colorName(m.Color), before, after)
	}
	return fmt.Sprintf("Move %d · %s %s · %s · better: %s", m.Number, stoneEmoji(m.Color), m.Move, lost, m.Best)
}

// parseLine reads a variation in GTP notation whose first move is c's;
// it stops at the first move it cannot read.
func parseLine(c engine.Color, line []string, size int) []engine.Move {
	var out []engine.Move
	for _, s := range line {
		m, err := engine.ParseMove(c, s, size)
		if err != nil {
			break
		}
		out = append(out, m)
		c = c.Opponent()
	}
	return out
}

func pct(x float64) string { return fmt.Sprintf("%d%%", int(math.Round(100*x))) }

func colorName(c engine.Color) string {
	if c == engine.White {
		return "White"
	}
	return "Black"
}

func embedColor(c engine.Color) int {
	if c == engine.White {
		return commands.ColorWhite
	}
	return commands.ColorBlack
}

// reviewedSGF is the record of a finished game with its review: Black's
// winning chance on every move, the mistakes with the preferred move, and
// each mistake's variation.
func reviewedSGF(a *storage.Archived, rv *review.Review) ([]byte, error) {
	g, info, err := engine.ParseSGF(a.SGF)
	if err != nil {
		return nil, fmt.Errorf("goroom: record of game %s: %w", a.ID, err)
	}
	info.Comments = map[int]string{}
	info.Variations = map[int][]engine.Move{}
	for n := 1; n < len(rv.Positions) && n <= g.MoveCount(); n++ {
		info.Comments[n] = fmt.Sprintf("Black's winning chance: %s → %s (%s)", pct(rv.Positions[n-1].Winrate), pct(rv.Positions[n].Winrate), rv.Engine)
	}
	for _, m := range rv.Mistakes {
		if m.Number > g.MoveCount() {
			continue
		}
		info.Comments[m.Number] += "\nMistake: " + mistakeLine(m) + ". The variation shows the preferred line."
		info.Variations[m.Number] = parseLine(m.Color, m.PV, g.Size())
	}
	if info.C != "" {
		info.C += "\n\n"
	}
	info.C += "Review: " + rv.Paragraph()
	var buf bytes.Buffer
	if err := engine.WriteSGF(&buf, g, *info); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cmdEstimate shows the score estimate of the game here (or, with game: or
// when none is being played here, of a finished game) with its ownership
// board. Spectators may ask at any time; players only in unrated games and
// after the game. A finished game without moves is refused, as /go review
// refuses it.
func (a *room) cmdEstimate(ctx context.Context, r *commands.Request) error {
	if _, named := r.String(commands.GameOption); !named {
		g, err := a.LoadGame(ctx, r.Interaction.ChannelID)
		if err == nil && goOf(g) == nil {
			return commands.UserErr(commands.ErrWrongGame, "The game in this channel is international draughts: score estimates are only for Go.")
		}
		if err == nil {
			private := false
			if !g.Unrated {
				if _, err := playerColor(g, r.User); err == nil {
					return commands.UserErr(commands.ErrForbidden, "Fair play: the players of a rated game cannot see a score estimate while it is played. Spectators can, and so can you once it has ended (`/go estimate game:"+g.ID+"`).")
				}
				// Spectators see it alone, so the players do not.
				private = true
			}
			return a.estimate(ctx, r, goOf(g), title(g), private)
		}
		if !errors.Is(err, commands.ErrNoGame) {
			return err
		}
	}
	arc, err := a.FinishedGameOption(ctx, r)
	if err != nil {
		return err
	}
	if err := a.OnlyFor(a, arc, "score estimates are"); err != nil {
		return err
	}
	g, info, err := engine.ParseSGF(arc.SGF)
	if err != nil {
		return fmt.Errorf("goroom: record of game %s: %w", arc.ID, err)
	}
	if g.MoveCount() == 0 {
		return commands.UserErr(commands.ErrBadOption, "That game has no moves to estimate.")
	}
	what := commands.ArchivedTitle(arc) + ", " + arc.Result
	if commands.AnnulledOnTimeArc(arc) {
		what = commands.ArchivedTitle(arc) + ", annulled on time" // no winner, as its final board says
	}
	if res, err := engine.ParseResult(arc.Result); err == nil && res.Reason == engine.ByScore && g.PlayEnded() {
		// The dead stones were settled: no estimate, the count.
		if sc := g.Score(info.Dead); sc.Result() == res.String() {
			return a.counted(ctx, r, g, sc, len(info.Dead), arc.Marking, commands.ArchivedTitle(arc), a.ShownPrivately(ctx, r, arc)) // the count is the result
		}
	}
	return a.estimate(ctx, r, g, what, a.ShownPrivately(ctx, r, arc))
}

// counted answers /go estimate for a game decided by counting with the
// count itself: the result and who owns each point, with the dead stones
// crossed out, saying how they were settled (marking, Archived.Marking).
func (a *room) counted(ctx context.Context, r *commands.Request, g *engine.Game, sc engine.Score, dead int, marking, what string, private bool) error {
	if err := r.Defer(ctx, private); err != nil {
		return err
	}
	own := make([]float64, len(sc.Owner))
	for i, c := range sc.Owner {
		switch c {
		case engine.Black:
			own[i] = 1
		case engine.White:
			own[i] = -1
		}
	}
	var buf bytes.Buffer
	if err := render.Ownership(&buf, g.Board(), own, render.OwnershipOptions{}); err != nil {
		return err
	}
	n := g.Size()
	name := fmt.Sprintf("count-%d.png", g.MoveCount())
	alt := fmt.Sprintf("Final count of the %d×%d board after move %d: %s; %s crossed out.", n, n, g.MoveCount(), sc.Result(), commands.Plural(dead, "dead stone"))
	text := fmt.Sprintf("Score of %s after move %d: **%s**, counted with %s (%s counting, komi included). "+
		"The shading shows who owns each point; the dead stones are crossed out.", what, g.MoveCount(), sc.Result(), markingSettled(marking), sc.Scoring)
	return r.Reply(ctx, &commands.Message{
		Content:         commands.Clip(text, 2000),
		Files:           []commands.File{{Name: name, ContentType: "image/png", Description: commands.Clip(alt, 1024), Data: buf.Bytes()}},
		Embeds:          []*discordgo.MessageEmbed{{Color: commands.ColorScore, Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}}},
		Ephemeral:       private,
		AllowedMentions: commands.NoMentions(),
	})
}

// estimate answers with the score estimate of g's position and its
// ownership board.
func (a *room) estimate(ctx context.Context, r *commands.Request, g *engine.Game, what string, private bool) error {
	if err := r.Defer(ctx, private); err != nil {
		return err
	}
	est, err := a.reviewer.Estimate(ctx, g, nil)
	if errors.Is(err, bots.ErrBusy) {
		return fmt.Errorf("%w: %w", commands.ErrBotBusy, err)
	}
	if err != nil {
		return err
	}
	b0 := g.Board()
	var buf bytes.Buffer
	if err := render.Ownership(&buf, b0, est.Ownership, render.OwnershipOptions{}); err != nil {
		return err
	}
	dead := render.DeadByOwnership(b0, est.Ownership, 0.5)
	lead := review.ScoreText(est.Score)
	n := g.Size()
	name := fmt.Sprintf("estimate-%d.png", g.MoveCount())
	alt := fmt.Sprintf("Ownership estimate of the %d×%d board after move %d: %s, give or take %.0f points; %s crossed out.",
		n, n, g.MoveCount(), lead, est.Stdev, commands.Plural(len(dead), "dead-looking stone"))
	text := fmt.Sprintf("Score estimate of %s after move %d: **%s**, give or take %.0f points (%s; %d playouts). "+
		"The shading shows how surely each point belongs to a side; dead-looking stones are crossed out.",
		what, g.MoveCount(), lead, est.Stdev, estimateCounting(g.Rules().Scoring), est.Playouts)
	if est.Counted {
		alt = fmt.Sprintf("Count of the %d×%d board after move %d, every region settled: %s; %s crossed out.",
			n, n, g.MoveCount(), lead, commands.Plural(len(dead), "dead-looking stone"))
		text = fmt.Sprintf("Score estimate of %s after move %d: **%s**, counted: every region is settled (%s counting, komi included). "+
			"The shading shows who owns each point; dead-looking stones are crossed out.",
			what, g.MoveCount(), lead, est.Scoring)
	}
	return r.Reply(ctx, &commands.Message{
		Content:         commands.Clip(text, 2000),
		Files:           []commands.File{{Name: name, ContentType: "image/png", Description: commands.Clip(alt, 1024), Data: buf.Bytes()}},
		Embeds:          []*discordgo.MessageEmbed{{Color: commands.ColorScore, Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}}},
		Ephemeral:       private,
		AllowedMentions: commands.NoMentions(),
	})
}

// estimateCounting says how an estimate of a position still open counts
// in a game scored by scoring: as the game does (review.Estimate turns
// the playouts' area count into territory by the stones each side placed).
func estimateCounting(scoring engine.Scoring) string {
	if scoring == engine.TerritoryScoring {
		return "territory counting, komi included"
	}
	return "area counting, komi included"
}

func (a *room) goOnly(arc *storage.Archived, what string) error {
	if storage.KindOf(arc.Kind) == goKind {
		return nil
	}
	return commands.UserErr(commands.ErrWrongGame, fmt.Sprintf("Game `%s` is a game of %s: %s only for Go. `/go sgf game:%s` gives its record, and `/go replay game:%s` its animation.", arc.ID, a.RoomOfKind(arc.Kind).Name(), what, arc.ID, arc.ID))
}

// reviewedRecord is arc's SGF with its stored review written in, and the
// sentence that presents it.
func (a *room) reviewedRecord(ctx context.Context, arc *storage.Archived) ([]byte, string, error) {
	rv := a.storedReview(ctx, arc)
	if rv == nil && arc.Moves == 0 {
		return nil, "", commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Game `%s` has no moves, so there is no review to write into its record.", arc.ID))
	}
	if rv == nil && a.reviewRuns(ctx, arc.ID) {
		return nil, "", commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Game `%s` is being reviewed now: the review will be ready soon, then ask again.", arc.ID))
	}
	if rv == nil {
		return nil, "", commands.UserErr(commands.ErrBadOption, fmt.Sprintf("Game `%s` has not been reviewed yet: `/go review game:%s` reviews it, then ask again.", arc.ID, arc.ID))
	}
	data, err := reviewedSGF(arc, rv)
	if err != nil {
		return nil, "", err
	}
	return data, fmt.Sprintf("Record of %s with its review, %d×%d, %s (SGF: the win rate on every move, the mistakes with the preferred lines as variations).", commands.ArchivedTitle(arc), arc.Size, arc.Size, arc.Result), nil
}

// A room takes over the reviews of dead workers in the App's sweep.
var _ commands.Sweeper = (*room)(nil)
