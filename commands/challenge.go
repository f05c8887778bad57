package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/engine/clock"
	"github.com/gobot-dev/gobot/storage"
)

// ChannelFree checks that a channel has no game running.
func (a *App) ChannelFree(ctx context.Context, channelID string) error {
	_, err := a.games.Game(ctx, channelID)
	switch {
	case err == nil:
		return ErrGameRunning
	case errors.Is(err, storage.ErrNotFound):
		return nil
	case errors.Is(err, storage.ErrCorrupt):
		// Set it aside and tell the channel: it is free now.
		if err := a.quarantine(ctx, channelID, err); !errors.Is(err, ErrQuarantined) && !errors.Is(err, ErrNoGame) {
			return err
		}
		a.tellSetAside(ctx, channelID)
		return nil
	}
	return err
}

// ChannelInfo is what an interaction's payload says of its channel that
// discordgo's Interaction drops: the channel's type and, for a thread,
// its parent (a forum post is a thread whose parent is a forum).
type ChannelInfo struct {
	Type     discordgo.ChannelType `json:"type"`
	ParentID string                `json:"parent_id"`
}

// IsThread reports whether the channel is a thread (forum posts included).
func (c *ChannelInfo) IsThread() bool {
	switch c.Type {
	case discordgo.ChannelTypeGuildNewsThread, discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread:
		return true
	}
	return false
}

// ThreadParent is the channel r's thread is in, when r came from a
// thread (one the players made, a forum post): a game started there is
// the parent channel's too, as one in a thread gobot starts is, so the
// parent's board page lists it. It is "" elsewhere.
func ThreadParent(r *Request) string {
	if r.Channel != nil && r.Channel.IsThread() {
		return r.Channel.ParentID
	}
	return ""
}

// channelOfPayload reads the channel object of an interaction's JSON
// payload; nil when the payload has none.
func channelOfPayload(payload []byte) *ChannelInfo {
	var p struct {
		Channel *ChannelInfo `json:"channel"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil
	}
	return p.Channel
}

// CanStartThreads reports whether the interaction's app_permissions let
// gobot start a game's thread in the channel. Without app_permissions
// (a payload that lacks them) it assumes so; accepting the challenge then
// finds out.
func CanStartThreads(it *discordgo.Interaction) bool {
	const need = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads
	return it.AppPermissions == 0 || it.AppPermissions&need == need
}

// discordWrongChannelType is Discord's JSON error code for "Cannot execute
// action on this channel type", the answer to a thread asked for inside a
// thread, say.
const discordWrongChannelType = 50024

// ThreadsHere reports whether gobot can start a public thread (a game's,
// a review's) in r's channel: a server channel of a kind that holds such
// threads, where gobot may create them. gobot asks for public threads
// (type 11), which Discord creates without a message in text channels
// only: not inside a thread or forum post (threads hold no threads), not
// in an announcement channel (its threads are announcement threads), a
// voice or stage channel's chat, nor a forum or media channel (whose
// threads are posts). A payload that does not say the channel's type (or
// gobot's permissions) is given the benefit of the doubt.
func ThreadsHere(r *Request) bool { return threadRefusal(r, "") == "" }

// threadRefusal is why no thread can be started in r's channel, ending
// with instead, what to do instead (e.g. "challenge with `thread:false`
// to play here"); "" when one can.
func threadRefusal(r *Request, instead string) string {
	it := r.Interaction
	switch ch := r.Channel; {
	case it.GuildID == "":
		return "Threads exist only in server channels: " + instead + "."
	case ch != nil && ch.IsThread():
		return "This is a thread (or a forum post) already, and Discord starts no thread inside a thread: " + instead + "."
	case ch != nil && ch.Type != discordgo.ChannelTypeGuildText:
		return "I can start a thread only in a text channel, and this is another kind of channel: " + instead + "."
	case !CanStartThreads(it):
		return "I may not create threads in this channel (I need Create Public Threads and Send Messages in Threads): " + instead + ", or ask a moderator to give me those permissions."
	}
	return ""
}

// ThreadRefusal is threadRefusal as an error to refuse a command's
// thread:true with (ErrForbidden when only permissions are missing), nil
// when a thread can be started here.
func ThreadRefusal(r *Request, instead string) error {
	msg := threadRefusal(r, instead)
	if msg == "" {
		return nil
	}
	if ch := r.Channel; r.Interaction.GuildID != "" && (ch == nil || (!ch.IsThread() && ch.Type == discordgo.ChannelTypeGuildText)) {
		return UserErr(ErrForbidden, msg)
	}
	return UserErr(ErrBadOption, msg)
}

// ChallengeGate reads a challenge's opponent: option and checks that
// the challenge may be made here (see startGate) against that person, who
// must be someone else, no bot account and, in a server, a member of it
// (OptionMember); botCmd names the command that plays gobot instead. A
// challenge is refused in the user's DM with gobot (interaction context
// BOT_DM), which nobody else can see: the opponent would never find it. It
// returns the opponent and the server's settings. Without opponent: the
// challenge is open to anyone (Opponent of), in a server channel only,
// and the opponent is nil.
func (a *App) ChallengeGate(ctx context.Context, r *Request, botCmd string) (*discordgo.User, *storage.Settings, error) {
	opp, ok := r.UserOption("opponent")
	if !ok {
		// An open challenge, which anyone here but its challenger may
		// accept: in a server channel, where others see it.
		if r.Interaction.GuildID == "" {
			return nil, nil, UserErr(ErrBadOption, "Choose who to challenge with `opponent:`: a challenge open to anyone is for server channels. To play me here, use `"+botCmd+"`.")
		}
		st, err := a.StartGate(ctx, r)
		return nil, st, err
	}
	switch {
	case opp.ID == r.User.ID:
		return nil, nil, UserErr(ErrBadOption, "You cannot challenge yourself. To practise, play the bot with `"+botCmd+"`.")
	case opp.Bot:
		return nil, nil, UserErr(ErrBadOption, fmt.Sprintf("%s is a bot account and cannot answer a challenge. To play gobot, use `%s`.", Mention(UserPlayer(opp)), botCmd))
	case r.Interaction.GuildID == "" && r.Interaction.Context == discordgo.InteractionContextBotDM:
		return nil, nil, UserErr(ErrBadOption, fmt.Sprintf("%s cannot see this DM with me: challenge them in a server channel, or in your DM or group DM with them. To play me here, use `%s`.", Mention(UserPlayer(opp)), botCmd))
	case !r.OptionMember("opponent"):
		// Someone who left the server, or was never in it (a user ID
		// typed in): they would never see the challenge.
		return nil, nil, UserErr(ErrBadOption, fmt.Sprintf("%s is not a member of this server, so they could not see this challenge or accept it. Challenge a member of this server, or challenge them in your DM or group DM with them.", Mention(UserPlayer(opp))))
	}
	st, err := a.StartGate(ctx, r) // the server's game channels, bans and limits (admin_checks.go)
	if err != nil {
		return nil, nil, err
	}
	if err := a.MayPlay(ctx, st, UserPlayer(opp), false); err != nil {
		return nil, nil, err
	}
	return opp, st, nil
}

// ThreadGate checks that a challenge's game can be played where it asks:
// in a new thread (where one can be started: see ThreadsHere), or here,
// when this channel has no game.
func (a *App) ThreadGate(ctx context.Context, r *Request, thread bool) error {
	if thread {
		return ThreadRefusal(r, "challenge with `thread:false` to play here")
	}
	return a.ChannelFree(ctx, r.Interaction.ChannelID)
}

// PostChallenge stores challenge c and shows it. The challenge message's
// ID is needed to disable its buttons on expiry: it defers, reads the
// deferred message's ID, stores the challenge, and only then shows the
// buttons, so that a click can never find the challenge missing.
func (a *App) PostChallenge(ctx context.Context, r *Request, c *storage.Challenge) error {
	if err := r.Defer(ctx, false); err != nil {
		return err
	}
	orig, err := r.Original(ctx)
	if err != nil {
		a.log.Warn("challenge: read deferred message; its buttons will not be disabled on expiry", "err", err)
	} else {
		c.MessageID = orig.ID
	}
	if err := a.challenges.CreateChallenge(ctx, c); err != nil {
		return err
	}
	return r.Reply(ctx, a.challengeMessage(c, "", a.pairLimitNote(ctx, c)))
}

// expiredOutcome is the outcome of a challenge nobody accepted in time.
const expiredOutcome = "⌛ This challenge expired."

// ChallengeMessage shows a challenge; outcome replaces the question once it
// is answered or expired, and the buttons are then disabled.
func (a *App) ChallengeMessage(c *storage.Challenge, outcome string) *Message {
	return a.challengeMessage(c, outcome, "")
}

// challengeMessage is ChallengeMessage with note, when not empty, under
// the invitation of an open challenge: the warning of pairLimitNote as it
// is posted (it goes with the question, once answered).
func (a *App) challengeMessage(c *storage.Challenge, outcome, note string) *Message {
	closed := outcome != ""
	text := a.RoomOfKind(c.Kind).ChallengeText(c)
	if closed {
		text += "\n" + outcome
	} else {
		if note != "" {
			text += "\n" + note
		}
		text += fmt.Sprintf("\nThe challenge expires <t:%d:R>.", c.ExpiresAt.Unix())
	}
	m := &Message{
		Content:         text,
		AllowedMentions: OnlyUsers(c.Opponent.UserID),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: "challenge/" + c.ID + "/accept", Disabled: closed},
			discordgo.Button{Label: "Decline", Style: discordgo.SecondaryButton, CustomID: "challenge/" + c.ID + "/decline", Disabled: closed},
		}}},
	}
	if closed || c.Open() {
		m.AllowedMentions = NoMentions() // an open challenge pings nobody
	}
	return m
}

// closeChallengeMessage shows challenge c in its message as it stands:
// closed, its buttons disabled, with outcome.
func (a *App) closeChallengeMessage(ctx context.Context, c *storage.Challenge, outcome string) {
	a.showChallengeMessage(ctx, c, outcome, "")
}

// showChallengeMessage shows challenge c in its message as it stands:
// closed, its buttons disabled, with outcome; or open, when outcome is
// empty (a rengo lobby whose teams changed), with note saying why.
func (a *App) showChallengeMessage(ctx context.Context, c *storage.Challenge, outcome, note string) {
	if c.MessageID == "" {
		return
	}
	m := a.ChallengeMessage(c, outcome)
	if p, ok := a.RoomOfKind(c.Kind).(Phases); ok && c.Team() {
		m = p.Lobby(c, outcome, note)
	}
	if err := a.opts.Discord.EditMessage(ctx, c.ChannelID, c.MessageID, m); err != nil {
		// gobot may not see the channel (user installs): buttons
		// pressed later still say the challenge is closed.
		a.log.Info("could not close challenge message", "challenge", c.ID, "err", err)
	}
}

// closedChallenge is the message for a button on a challenge that is
// gone, when the click's copy of the message still shows the challenge
// open past its expiry: the sweep expired it but could not edit its
// message (gobot may not see the channel: user installs), so this click
// closes it for everyone. It is nil for any other copy: the challenge was
// answered or withdrawn, and the click that did so closed its message; a
// copy taken before that (a double-click on Accept, a Decline sent as the
// challenge was accepted) must not put the old text back.
func closedChallenge(r *Request, now time.Time) *Message {
	msg := r.Interaction.Message
	if msg == nil {
		return nil
	}
	const expires = "\nThe challenge expires <t:"
	i := strings.LastIndex(msg.Content, expires)
	if i < 0 {
		return nil
	}
	var at int64
	if _, err := fmt.Sscanf(msg.Content[i+len(expires):], "%d:R>", &at); err != nil || now.Before(time.Unix(at, 0)) {
		return nil
	}
	m := &Message{Content: msg.Content[:i] + "\n" + expiredOutcome, AllowedMentions: NoMentions()}
	var rows []discordgo.MessageComponent
	for _, row := range msg.Components {
		ar, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		var btns []discordgo.MessageComponent
		for _, c := range ar.Components {
			if bt, ok := c.(*discordgo.Button); ok {
				bt.Disabled = true
				btns = append(btns, *bt)
			}
		}
		rows = append(rows, discordgo.ActionsRow{Components: btns})
	}
	m.Components = rows
	return m
}

// answerableChallenge loads the challenge a button belongs to and checks
// who may answer it and that it is still open.
// FromOtherServer refuses a press of challenge c's button that comes from
// another server (or a DM) than c's. Discord sends a press from the
// message that holds the button, so such a press is forged; carried out,
// it would start the game under the presser's server, out of reach of its
// own server's admins and within another's.
func FromOtherServer(r *Request, c *storage.Challenge) error {
	if c.GuildID == r.Interaction.GuildID {
		return nil
	}
	return UserErr(ErrNotChallenged, "This challenge was made on another server: answer it there.")
}

func (a *App) answerableChallenge(ctx context.Context, r *Request, allowChallenger bool) (*storage.Challenge, error) {
	c, err := a.challenges.Challenge(ctx, r.Param("id"))
	if errors.Is(err, storage.ErrNotFound) {
		// Answered, withdrawn or expired. An expired challenge whose
		// message still shows it open is closed for everyone; else the
		// message says what became of it already, and only the clicker
		// is told (ErrNoChallenge).
		if m := closedChallenge(r, a.Now()); m != nil {
			if uerr := r.Update(ctx, m); uerr != nil {
				return nil, uerr
			}
		}
		return nil, ErrNoChallenge
	}
	if err != nil {
		return nil, err
	}
	if err := FromOtherServer(r, c); err != nil {
		return nil, err
	}
	if c.Open() && !c.Team() {
		// Open to anyone but its challenger, who may only withdraw it.
		switch mine := r.User.ID == c.Challenger.UserID; {
		case mine && !allowChallenger:
			return nil, UserErr(ErrNotChallenged, "This is your own open challenge: anyone else here may accept it. Press Decline to withdraw it.")
		case !mine && allowChallenger:
			return nil, UserErr(ErrNotChallenged, fmt.Sprintf("Only %s can withdraw this open challenge: press Accept to play them, or leave it for someone else.", Mention(c.Challenger)))
		}
	} else if r.User.ID != c.Opponent.UserID && !(allowChallenger && r.User.ID == c.Challenger.UserID) {
		if r.User.ID == c.Challenger.UserID {
			// The challenger pressing Accept on their own challenge may
			// be looking for a way to take it back: Decline is that.
			return nil, UserErr(ErrNotChallenged, fmt.Sprintf("This is your own challenge: only %s can accept it. Press Decline to withdraw it.", Mention(c.Opponent)))
		}
		return nil, UserErr(ErrNotChallenged, fmt.Sprintf("Only %s can answer this challenge.", Mention(c.Opponent)))
	}
	if !a.Now().Before(c.ExpiresAt) {
		if err := a.challenges.DeleteChallenge(ctx, c.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		if err := r.Update(ctx, a.ChallengeMessage(c, expiredOutcome)); err != nil {
			return nil, err
		}
		return nil, ErrExpired
	}
	return c, nil
}

func (a *App) btnDecline(ctx context.Context, r *Request) error {
	c, err := a.answerableChallenge(ctx, r, true)
	if err != nil {
		return quietIfAnswered(r, err)
	}
	hold := HoldDecline
	if r.User.ID == c.Challenger.UserID {
		hold = HoldWithdraw
	}
	release, err := a.HoldChallenge(ctx, r, c.ID, hold, challengeBusy(hold), "")
	if err != nil {
		return err
	}
	defer release()
	if err := a.challenges.DeleteChallenge(ctx, c.ID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return ErrNoChallenge
		}
		return err
	}
	outcome := fmt.Sprintf("❌ %s declined.", Mention(c.Opponent))
	if hold == HoldWithdraw {
		outcome = fmt.Sprintf("↩️ %s withdrew the challenge.", Mention(c.Challenger))
	}
	return r.Update(ctx, a.ChallengeMessage(c, outcome))
}

// quietIfAnswered drops the error when the handler already updated the
// message to say why (a closed or expired challenge): the user sees it.
func quietIfAnswered(r *Request, err error) error {
	if (errors.Is(err, ErrNoChallenge) || errors.Is(err, ErrExpired)) && r.Responded() {
		return nil
	}
	return err
}

func (a *App) btnAccept(ctx context.Context, r *Request) error {
	c, err := a.answerableChallenge(ctx, r, false)
	if err != nil {
		return quietIfAnswered(r, err)
	}
	// A ban, a limit reached or game channels restricted since the
	// challenge was made hold.
	st, err := a.Settings(ctx, c.GuildID)
	if err != nil {
		return err
	}
	if err := a.InGameChannel(ctx, st, c.ChannelID, a.RoomOfKind(c.Kind).Command()); err != nil {
		return err
	}
	if err := a.MayPlay(ctx, st, UserPlayer(r.User), true); err != nil {
		return err
	}
	if err := a.MayPlay(ctx, st, c.Challenger, false); err != nil {
		return err
	}
	release, err := a.ClaimChallenge(ctx, r, c, HoldAccept, challengeBusy(HoldAccept))
	if err != nil {
		return a.cannotStartYet(r, c, err)
	}
	defer release()
	if c.Open() {
		// The first to accept an open challenge is its opponent.
		c.Opponent, c.Taken = UserPlayer(r.User), true
	}
	return a.cannotStartYet(r, c, a.RoomOfKind(c.Kind).Accept(ctx, r, c))
}

// closeOtherSeeks withdraws the other open challenges that c's players
// opened in c's channel, now that c's game began there: the channel holds
// one game at a time, and such a challenge, accepted once it was over,
// would start another game for someone who had found one (as lidraughts
// and OGS take down a player's seeks when a game of theirs starts), and
// the challenges between the same two people to the same game here: the
// other of two crossing challenges would start a second game between
// them hours later. Challenges that play in a new thread stay, as do
// those naming another opponent.
func (a *App) closeOtherSeeks(ctx context.Context, r *Request, c *storage.Challenge) {
	if c.GuildID == "" {
		return
	}
	list, err := a.admin.GuildChallenges(ctx, c.GuildID)
	if err != nil {
		a.log.Warn("accept: list the players' other open challenges", "challenge", c.ID, "err", err)
		return
	}
	now := a.Now()
	for _, o := range list {
		if o.ID == c.ID || o.ChannelID != c.ChannelID || o.Team() || o.Thread || o.Expired(now) ||
			(o.Challenger.UserID != c.Challenger.UserID && o.Challenger.UserID != c.Opponent.UserID) ||
			(!o.Open() && (o.Kind != c.Kind || !samePair(o, c))) {
			continue
		}
		a.withdrawChallenge(ctx, r, o, fmt.Sprintf("⌛ Withdrawn: %s's game with %s began in this channel.", Mention(c.Challenger), Mention(c.Opponent)), nil)
	}
}

// samePair reports whether two challenges naming their opponents are
// between the same two people, either way round.
func samePair(a, b *storage.Challenge) bool {
	return (a.Challenger.UserID == b.Challenger.UserID && a.Opponent.UserID == b.Opponent.UserID) ||
		(a.Challenger.UserID == b.Opponent.UserID && a.Opponent.UserID == b.Challenger.UserID)
}

// cannotStartYet is err, said to the opponent who pressed Accept (r) on
// challenge c when it is ErrGameRunning: the challenge stays open and can
// start once the channel's game is over, and where a thread can be
// started its challenger can challenge again in a thread. (ErrGameRunning's
// own sentence tells the one who asks for a game to ask in a thread: the
// opponent asked for nothing.)
func (a *App) cannotStartYet(r *Request, c *storage.Challenge, err error) error {
	if !errors.Is(err, ErrGameRunning) || errors.As(err, new(*UserError)) {
		return err
	}
	where := "channel"
	switch {
	case c.GuildID == "":
		where = "DM"
	case r.Channel != nil && r.Channel.IsThread():
		where = "thread"
	}
	msg := fmt.Sprintf("A game is already running in this %s, so this challenge cannot start yet: accept it once that game is over (the challenge expires <t:%d:R>)", where, c.ExpiresAt.Unix())
	switch {
	case c.GuildID == "" || !ThreadsHere(r):
	case c.Open() || c.Taken:
		msg += fmt.Sprintf(", or ask %s to open it again with `/%s challenge ... thread:true` to play in a thread", Mention(c.Challenger), a.RoomOfKind(c.Kind).Command())
	default:
		msg += fmt.Sprintf(", or ask %s to challenge you again with `/%s challenge ... thread:true` to play in a thread", Mention(c.Challenger), a.RoomOfKind(c.Kind).Command())
	}
	return UserErr(err, msg+".")
}

// ClaimChallenge claims c for r while its game starts (hold: HoldAccept,
// HoldStart), and checks that its channel is free when the game is to be
// played there. A second Accept or Start pressed meanwhile (a double
// click, possibly on another worker) is refused at once with busy's
// sentence (see HoldChallenge), before it could start a second thread:
// AcceptChallenge would refuse its game, but the thread would stay, empty.
// The caller defers release.
func (a *App) ClaimChallenge(ctx context.Context, r *Request, c *storage.Challenge, hold Hold, busy func(other Hold) string) (release func(), err error) {
	release, err = a.HoldChallenge(ctx, r, c.ID, hold, busy, "")
	if err != nil {
		return nil, err
	}
	if !c.Thread {
		if err := a.ChannelFree(ctx, c.ChannelID); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// A Hold is what an attempt holding a challenge's claim does (see
// HoldChallenge). The claim's holder is named by its Hold and the
// interaction's ID, so that an attempt refused meanwhile, on any process,
// can say what is under way instead of guessing.
type Hold string

// The holds on a challenge.
const (
	HoldAccept   Hold = "accept"   // an Accept starting the game
	HoldDecline  Hold = "decline"  // its opponent declining it
	HoldWithdraw Hold = "withdraw" // its challenger withdrawing it (or a ban, for them)
	HoldStart    Hold = "start"    // a rengo lobby's Start starting the game
	HoldCallOff  Hold = "calloff"  // a rengo lobby called off by its opener
	// HoldShow is a rengo lobby's message being edited to the teams as
	// they stand: brief, and waited for rather than refused.
	HoldShow Hold = "show"
)

// holdOf is the Hold of a claim's holder name ("" when it names none).
func holdOf(holder string) Hold {
	h, _, ok := strings.Cut(holder, ":")
	if !ok {
		return ""
	}
	return Hold(h)
}

// holdPatience bounds how long HoldChallenge waits for a brief hold
// (HoldShow) to be given back, and holdPause is how long it waits between
// two attempts.
const (
	holdPatience = 3 * time.Second
	holdPause    = 20 * time.Millisecond
)

// HoldChallenge claims challenge id for r while r changes it: a start
// (ClaimChallenge), or a change that would undo a start under way
// (declining or withdrawing it, calling a rengo lobby off); hold says
// which. While another holds it, the claim is refused with busy(other),
// other being what that holder does ("" when it is not known); a brief
// hold (a lobby's message being shown) is waited for instead. The
// challenge gone is ErrNoChallenge, said as gone when that is not empty.
// The caller defers release.
func (a *App) HoldChallenge(ctx context.Context, r *Request, id string, hold Hold, busy func(other Hold) string, gone string) (release func(), err error) {
	release, other, err := a.WaitHold(ctx, r, id, hold, holdPatience, func(other Hold) bool { return other == HoldShow })
	switch {
	case errors.Is(err, storage.ErrConflict):
		return nil, UserErr(ErrNoChallenge, busy(other))
	case errors.Is(err, ErrNoChallenge) && gone != "":
		return nil, UserErr(ErrNoChallenge, gone)
	case err != nil:
		return nil, err
	}
	return release, nil
}

// WaitHold claims challenge id for r, with hold, as HoldChallenge does,
// and waits while another holds it when wait(other) says so, for at most
// patience; then it gives up with an error wrapping storage.ErrConflict
// and returns what the other holder does. The challenge gone is
// ErrNoChallenge. The caller defers release.
func (a *App) WaitHold(ctx context.Context, r *Request, id string, hold Hold, patience time.Duration, wait func(other Hold) bool) (release func(), other Hold, err error) {
	holder := string(hold) + ":" + r.Interaction.ID
	giveUp := time.Now().Add(patience) // the wall clock: this is a pause between attempts, not a deadline of the game
	for {
		err := a.challenges.ClaimChallenge(ctx, id, holder, acceptClaim)
		var held *storage.ClaimedError
		switch {
		case err == nil:
			return func() {
				if err := a.challenges.ReleaseChallenge(context.WithoutCancel(ctx), id, holder); err != nil {
					a.log.Warn("release a challenge claimed", "challenge", id, "err", err)
				}
			}, "", nil
		case errors.Is(err, storage.ErrNotFound):
			return nil, "", ErrNoChallenge
		case errors.As(err, &held):
			other = holdOf(held.Holder)
			// A holder that is "" gave its claim back as the refusal was
			// read: try again.
			if !time.Now().Before(giveUp) || (held.Holder != "" && !wait(other)) {
				return nil, other, err
			}
		default:
			return nil, "", err
		}
		t := time.NewTimer(holdPause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, other, ctx.Err()
		case <-t.C:
		}
	}
}

// challengeBusy is the refusal of an Accept, a Decline or a withdraw
// (mine) of a challenge that another attempt holds, doing other: what is
// under way, and that mine can no longer happen.
func challengeBusy(mine Hold) func(other Hold) string {
	return func(other Hold) string {
		doing := map[Hold]string{HoldAccept: "accepted", HoldDecline: "declined", HoldWithdraw: "withdrawn"}
		what, ok := doing[other]
		if !ok {
			what = "answered"
		}
		if other == mine {
			return fmt.Sprintf("This challenge is being %s already.", what)
		}
		return fmt.Sprintf("This challenge is being %s: it can no longer be %s.", what, doing[mine])
	}
}

// StartChallenge starts the game challenge c became, with these sides: in
// a new thread of that name when c asks for one. One transaction removes
// the challenge and creates the game, so that of two starts exactly one
// succeeds and the challenge is never lost when the game cannot start. It
// then closes the challenge's message (shown by closed, with outcome and
// a link to the thread) and posts the first board.
func (a *App) StartChallenge(ctx context.Context, r *Request, c *storage.Challenge, sides []storage.Side, threadName string, closed func(outcome string) *Message, outcome string) error {
	it := r.Interaction
	channel, parent := c.ChannelID, ""
	if c.ChannelID == it.ChannelID {
		parent = ThreadParent(r) // a challenge in a thread: the game lives there
	}
	st, err := a.RoomOfKind(c.Kind).NewState(c)
	if err != nil {
		return err
	}
	if c.Thread {
		// The thread's ID is the game's key, so the thread comes first; the
		// challenge stays open until AcceptChallenge below.
		th, err := a.opts.Discord.StartThread(ctx, c.ChannelID, Clip(threadName, 100))
		if err != nil {
			// The one who pressed Accept did not ask for the thread:
			// the challenger is the one to challenge again.
			again := "Start the game again with `thread:false` to play here."
			if r.User != nil && c.Challenger.UserID != r.User.ID {
				again = fmt.Sprintf("The challenge stays open: %s can challenge again with `thread:false` to play here.", Mention(c.Challenger))
			}
			if errors.Is(err, ErrDiscordForbidden) {
				return UserErr(err, "I may not create threads here (I need Create Public Threads and Send Messages in Threads), so this game cannot start in a thread of its own. "+again)
			}
			if DiscordCode(err) == discordWrongChannelType {
				// Refused at the command since, but a challenge made
				// before that, or whose payload did not say the
				// channel's type, can get here.
				return UserErr(err, "Discord starts no thread in this channel (a thread, a forum post, or a channel other than a text channel), so this game cannot start in a thread of its own. "+again)
			}
			return err
		}
		channel, parent = th.ID, c.ChannelID
	}
	g := &storage.Game{
		ID: c.ID, ChannelID: channel, GuildID: it.GuildID, ParentChannelID: parent, Kind: storage.KindOf(c.Kind),
		Sides: sides, State: st, Clock: NewClock(ChallengeClock(c), st, a.Now()),
		CreatedAt: a.Now(), Unrated: c.Unrated, TeamClock: c.TeamClock,
	}
	// The first turn is paused, as every later one, when its player is on
	// vacation: accepted while they are away, a challenge does not start
	// their clock.
	a.syncClock(ctx, g)
	a.StartRanks(ctx, g)
	if !c.Thread {
		// The Accept's token is how the game's first boards reach the
		// channel before anyone plays a slash command there: a move from
		// the board page, or a bot's (see PostBoard). A thread's game has
		// none: a follow-up would be posted in the parent channel.
		g.Delivery.Followup = FollowupOf(it, a.Now())
	}
	if err := a.challenges.AcceptChallenge(ctx, c.ID, g); err != nil {
		if c.Thread && refused(err) {
			a.abandonThread(ctx, c, channel, err)
		}
		switch {
		case errors.Is(err, storage.ErrNotFound):
			return ErrNoChallenge
		case errors.Is(err, storage.ErrExpired):
			if uerr := r.Update(ctx, closed(expiredOutcome)); uerr != nil {
				return uerr
			}
			return nil
		case errors.Is(err, storage.ErrExists):
			return ErrGameRunning
		case errors.Is(err, storage.ErrConflict):
			return UserErr(ErrStale, "The teams changed while the game was starting: look at them again and press Start once more.")
		}
		return err
	}
	a.log.Info("game started", "game", g.ID, "channel", channel, "players", len(g.Players()))
	if c.Thread {
		outcome += fmt.Sprintf(" The game is in <#%s>.", channel)
	}
	if err := r.Update(ctx, closed(outcome)); err != nil {
		return err
	}
	if !c.Thread && !c.Team() {
		a.closeOtherSeeks(ctx, r, c)
	}
	begins := "The game begins. Good luck, have fun!"
	if note := a.pairLimitNote(ctx, c); note != "" {
		// Said on the challenge too, but an open one could not know
		// who would accept it (c.Opponent is now the one who did), and
		// the board is what the players keep looking at.
		begins += "\n" + note
	}
	bm, err := a.StateMessage(ctx, g, a.Now(), begins)
	if err != nil {
		return err
	}
	a.KickClocks()
	if a.movedOn(ctx, g) {
		// A player who saw the challenge accepted played at once, or
		// resigned, and that answer showed the board: the start's would
		// come after it, pinging the wrong player or one of a game over.
		a.log.Info("the game's first board is not posted: a move was made first, or the game ended", "game", g.ID)
		return nil
	}
	var sent *discordgo.Message
	if c.Thread {
		sent, err = a.opts.Discord.SendMessage(ctx, channel, bm)
	} else {
		sent, err = r.ReplyMessage(ctx, bm)
	}
	if err != nil {
		return err
	}
	if a.movedOn(ctx, g) {
		a.retireStartBoard(ctx, g, sent)
		return nil
	}
	a.KeepBoardID(ctx, g, sent)
	return nil
}

// abandonThread tells thread, started for challenge c's game, that the
// game did not start there because the store refused it (err), and
// archives it. Everything the command can check is checked before the
// thread is made (bans, the server's limit of games at once, expiry, a
// second Accept, which ClaimChallenge refuses), but the thread comes
// before the game, whose key it is: Accepts pressed at the same moment
// all pass the limit's count, and the store refuses all but one. Their
// threads stayed, empty and unexplained, in the channel's list. gobot
// archives a thread it started as its creator, which needs no Manage
// Threads (deleting it would, and gobot does not ask for that).
// refused reports whether err is the store's refusal of a new game (a
// ban, the limit, an expired or answered challenge, teams that changed, a game
// already there): then nothing was written. Any other error (a cancelled
// request, a lost acknowledgement of a commit) may hide a game that did
// start, whose thread must not be told otherwise.
func refused(err error) bool {
	var le *storage.LimitError
	return errors.As(err, &le) || errors.Is(err, storage.ErrBanned) || errors.Is(err, storage.ErrExpired) || errors.Is(err, storage.ErrNotFound) ||
		errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrExists)
}

func (a *App) abandonThread(ctx context.Context, c *storage.Challenge, thread string, err error) {
	ctx = context.WithoutCancel(ctx) // the thread is there whatever became of the Accept
	what := "challenge"
	if c.Team() {
		what = "lobby"
	}
	open := fmt.Sprintf(" The %s is still open in <#%s>.", what, c.ChannelID)
	var why string
	var le *storage.LimitError
	var be *storage.BanError
	switch {
	case errors.As(err, &le):
		msg, _ := ErrorMessage(limitRefusal(le.Player, le.Games, le.Max, false))
		why = msg + open
	case errors.As(err, &be):
		msg, _ := ErrorMessage(banRefusal(be.Ban, false))
		why = msg + open
	case errors.Is(err, storage.ErrExpired):
		why = fmt.Sprintf("the %s expired before it was accepted.", what)
	case errors.Is(err, storage.ErrNotFound):
		why = fmt.Sprintf("the %s was answered or withdrawn meanwhile.", what)
	case errors.Is(err, storage.ErrConflict):
		why = "the teams changed while the game was starting." + open
	case errors.Is(err, storage.ErrExists):
		why = fmt.Sprintf("the %s was answered meanwhile.", what)
	}
	if _, err := a.opts.Discord.SendMessage(ctx, thread, &Message{Content: "⚠️ This game did not start: " + why, AllowedMentions: NoMentions()}); err != nil {
		a.log.Info("tell a thread its game did not start", "challenge", c.ID, "thread", thread, "err", err)
	}
	ar, ok := DiscordAs[threadArchiver](a.opts.Discord)
	if !ok {
		return
	}
	if err := ar.ArchiveThread(ctx, thread); err != nil {
		a.log.Info("archive a thread whose game did not start", "challenge", c.ID, "thread", thread, "err", err)
	}
}

// threadArchiver is what a thread started for a game that did not start
// needs beyond Discord: archiving it (abandonThread). REST implements it;
// the console, which has no threads, does not.
type threadArchiver interface {
	ArchiveThread(ctx context.Context, threadID string) error
}

var _ threadArchiver = (*REST)(nil)

// ArchiveThread archives a thread gobot started (PATCH /channels/{id}
// with archived: true), which its creator may do without Manage Threads.
func (c *REST) ArchiveThread(ctx context.Context, threadID string) error {
	ep := discordgo.EndpointChannel(threadID)
	return c.send(ctx, http.MethodPatch, ep, ep, map[string]any{"archived": true}, nil, nil)
}

// movedOn reports whether g, a game just started, has had a move since,
// or has ended (resigned, aborted, lost on time: its record has left the
// channel, which may hold a newer game): its board is no longer the newest
// to post. Only a store that could not answer leaves it to be posted.
func (a *App) movedOn(ctx context.Context, g *storage.Game) bool {
	cur, err := a.games.Game(ctx, g.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return true
	}
	if err != nil {
		return false
	}
	_, over := cur.State.Result()
	return cur.ID != g.ID || over || cur.State.MoveCount() > g.State.MoveCount()
}

// startedNote is what the board of a game's start says once it was posted
// after the boards of its first moves, or after its end.
const startedNote = "The game began here; its newest board is above."

// retireStartBoard turns m, the board of g's start posted after the board
// of a move made in the meantime, or of g's end, into a note without
// buttons and without the ping of a player no longer to move: the
// channel's last message must not ask for a move already made, or for one
// in a game over. (Where gobot may not edit,
// a user-install private channel, it stays as posted; its buttons refuse
// a stale move.)
func (a *App) retireStartBoard(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	if m == nil || m.ID == "" || (g.Delivery.Followup != nil && !g.Delivery.Followup.ChannelPosts) {
		return
	}
	if err := a.opts.Discord.EditMessage(ctx, g.ChannelID, m.ID, &Message{Content: startedNote, ClearComponents: true, AllowedMentions: NoMentions()}); err != nil {
		a.log.Info("retire the board of a game's start posted after its first move", "game", g.ID, "err", err)
	}
}

// ChallengeClock is the time control of a challenge: the one chosen, or the
// default for challenges stored before clocks existed.
func ChallengeClock(c *storage.Challenge) clock.Control {
	if c.Clock == nil {
		return clock.Default()
	}
	return *c.Clock
}

// KeepBoardID records the ID of a board message of g, posted in its
// channel or answering an interaction, so that its buttons can be
// disabled when the game ends on time and /go-admin games can link the
// newest board (storage.AddMessageID: no new version, so a move made at
// the same moment is not refused). A finished game's boards are not
// kept: its record has left the channel. A board of g posted while g ended
// (a /go board answered as a resignation was made) was not known to the
// ending, which retired the boards it kept: it loses its buttons here.
func (a *App) KeepBoardID(ctx context.Context, g *storage.Game, m *discordgo.Message) {
	if m == nil || m.ID == "" {
		return
	}
	if _, over := g.State.Result(); over {
		return
	}
	if cur, err := a.games.Game(ctx, g.ChannelID); err == nil && cur.ID == g.ID && cur.State.MoveCount() > g.State.MoveCount() {
		// Posted after the boards of later moves (an accepted
		// challenge's first board that took longer than the first
		// moves): an old board, which must not become the newest.
		return
	}
	err := a.games.AddMessageID(ctx, g.ChannelID, g.ID, m.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound) && len(m.Components) > 0 && (g.Delivery.Followup == nil || g.Delivery.Followup.ChannelPosts):
		// (Where gobot may not post, a user-install private channel, it
		// may not edit either: the board keeps its dead buttons.)
		if err := a.opts.Discord.EditMessage(ctx, g.ChannelID, m.ID, &Message{ClearComponents: true}); err != nil {
			a.log.Info("remove the buttons of a board of an ended game", "game", g.ID, "err", err)
		}
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		a.log.Info("could not record the board's message", "game", g.ID, "err", err)
	}
}

// NewestBoard returns the ID of g's newest board message ("" when it
// keeps none): the greatest of its IDs, which grow with time on Discord
// (boards posted at once may be kept in either order).
func NewestBoard(g *storage.Game) string {
	newest := ""
	for _, id := range g.Delivery.MessageIDs {
		if len(id) > len(newest) || (len(id) == len(newest) && id > newest) {
			newest = id
		}
	}
	return newest
}

// SeedFrom derives a game's seed from its ID (a snowflake).
func SeedFrom(id string) int64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return int64(h >> 1)
}

// sweep closes expired challenges (scoring phases end by the clocks'
// scheduler, runClocks) and does the rooms' background work (Sweeper).
func (a *App) Sweep(ctx context.Context) {
	now := a.Now()
	expired, err := a.challenges.ExpiredChallenges(ctx, now)
	if err != nil && ctx.Err() == nil { // not at shutdown
		a.log.Warn("sweep: expired challenges", "err", err)
	}
	for _, c := range expired {
		if err := a.challenges.DeleteChallenge(ctx, c.ID); err != nil {
			if !errors.Is(err, storage.ErrNotFound) {
				a.log.Warn("sweep: delete challenge", "challenge", c.ID, "err", err)
			}
			continue
		}
		a.closeChallengeMessage(ctx, c, expiredOutcome)
	}
	// Damaged records are set aside on the way; scoring phases end by the
	// clocks' scheduler (runClocks), which reads the deadline index.
	a.activeGames(ctx, "sweep")
	for _, rm := range a.rooms.list {
		if s, ok := rm.(Sweeper); ok {
			s.SweepRoom(ctx)
		}
	}
}

// Sweeper is a room with background work of its own, which Sweep does
// with the core's (a review whose worker died, taken over). Its method's
// name is not Sweep: a room embeds the App, whose Sweep it would promote.
type Sweeper interface {
	SweepRoom(ctx context.Context)
}

// activeGames loads every active game for the background work. Damaged
// records are set aside on the way (setAside) and the rest returned, so one
// bad record never holds up the others; err is for a store that could not
// be read at all.
func (a *App) activeGames(ctx context.Context, what string) ([]*storage.Game, error) {
	games, err := a.games.ActiveGames(ctx)
	corrupt := storage.CorruptChannels(err)
	for _, ch := range corrupt {
		a.setAside(ctx, ch)
	}
	if err != nil && len(corrupt) == 0 {
		if ctx.Err() == nil { // not at shutdown
			a.log.Warn(what+": active games", "err", err)
		}
		return games, err
	}
	return games, nil
}

// Run does the background work until ctx ends: at start it credits the
// clocks with the time gobot was down and sets the workers going that
// make the bot moves owed in the store's queue (moves owed before a
// restart included; they stop with Shutdown); then the clocks' scheduler
// handles every deadline (reminders, loss on time, scoring phases) while
// every minute expired challenges are closed.
func (a *App) Run(ctx context.Context) error {
	a.creditOutage(ctx)
	clocks := make(chan struct{})
	go func() {
		defer close(clocks)
		a.runClocks(ctx)
	}()
	defer func() { <-clocks }()
	a.startWorkers()
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		a.track(func() { a.Sweep(ctx) })
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
