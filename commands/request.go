package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// Request is one interaction being handled: who sent it, its options or
// path parameters, and the state of its response. Its reply methods pick the
// right Discord call for that state: the initial response first, an edit of
// the deferred response after Defer, follow-ups after that.
type Request struct {
	Interaction *discordgo.Interaction
	// User is the user who acted: Member.User in servers, User in DMs.
	User *discordgo.User
	// Path is the command path ("go/play") or the component's custom ID.
	Path string
	// Channel is what the payload says of the interaction's channel (its
	// type, a thread's parent), which discordgo's Interaction drops; nil
	// when it is not known (the console, a request taken over).
	Channel *ChannelInfo

	discord Discord
	initial initialFunc
	options []*discordgo.ApplicationCommandInteractionDataOption
	params  map[string]string

	mu                sync.Mutex
	state             responseState
	deferredEphemeral bool
	deferredUpdate    bool
}

type responseState int

const (
	stateNew responseState = iota
	stateDeferred
	stateResponded
)

// initialFunc sends the initial response and returns its message when
// Discord says which it is (nil otherwise). It returns a *deferredErr when
// it sent a deferral instead (the HTTP endpoint does that for files and
// when the 3-second deadline approaches); the Request then edits that
// deferral.
type initialFunc func(ctx context.Context, resp *Response) (*discordgo.Message, error)

type deferredErr struct{ ephemeral, update bool }

func (e *deferredErr) Error() string { return "commands: response was deferred" }

// newRequest prepares the interaction for handling; the initial response goes
// through initial, everything else through d.
func newRequest(it *discordgo.Interaction, d Discord, initial initialFunc) *Request {
	r := &Request{Interaction: it, discord: d, initial: initial}
	switch {
	case it.Member != nil && it.Member.User != nil:
		r.User = it.Member.User
	case it.User != nil:
		r.User = it.User
	}
	return r
}

// DeferredRequest is a Request for it, an interaction received earlier
// (maybe by another process) whose answer was deferred, privately when
// ephemeral, and never sent: its replies edit that answer while its token
// lasts. A process that takes over work a dead one left answers for it so.
func DeferredRequest(it *discordgo.Interaction, d Discord, ephemeral bool) *Request {
	r := newRequest(it, d, nil)
	r.state, r.deferredEphemeral = stateDeferred, ephemeral
	return r
}

// Param returns a parameter of the component's custom ID pattern.
func (r *Request) Param(name string) string { return r.params[name] }

// IsComponent reports whether the interaction is a button press.
func (r *Request) IsComponent() bool {
	return r.Interaction.Type == discordgo.InteractionMessageComponent
}

// Responded reports whether an initial response (or deferral) was sent.
func (r *Request) Responded() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state != stateNew
}

// Reply answers with a message: the initial response, or the edit of a
// deferred one, or a follow-up.
func (r *Request) Reply(ctx context.Context, m *Message) error {
	_, err := r.send(ctx, &Response{Type: discordgo.InteractionResponseChannelMessageWithSource, Message: m})
	return err
}

// ReplyMessage answers as Reply does and returns the message when Discord
// says which it is (after a deferral, for follow-ups, and for an initial
// response sent through the callback endpoint; nil for one written as the
// answer to Discord's HTTP request, which says nothing back).
func (r *Request) ReplyMessage(ctx context.Context, m *Message) (*discordgo.Message, error) {
	return r.send(ctx, &Response{Type: discordgo.InteractionResponseChannelMessageWithSource, Message: m})
}

// Original returns the message of the initial response (after Defer, the
// "thinking" message that the next Reply will turn into the answer).
func (r *Request) Original(ctx context.Context) (*discordgo.Message, error) {
	return r.discord.Original(ctx, r.Interaction)
}

// ReplyText answers with a short text; ephemeral when private is true.
func (r *Request) ReplyText(ctx context.Context, text string, private bool) error {
	return r.Reply(ctx, &Message{Content: text, Ephemeral: private})
}

// Update replaces the message whose button was pressed; for commands it
// replies instead.
func (r *Request) Update(ctx context.Context, m *Message) error {
	t := discordgo.InteractionResponseUpdateMessage
	if !r.IsComponent() {
		t = discordgo.InteractionResponseChannelMessageWithSource
	}
	_, err := r.send(ctx, &Response{Type: t, Message: m})
	return err
}

// Defer acknowledges the interaction at once ("gobot is thinking…") so slow
// work can follow; the next Reply edits the deferred message.
func (r *Request) Defer(ctx context.Context, private bool) error {
	_, err := r.send(ctx, &Response{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Message: &Message{Ephemeral: private}})
	return err
}

// DeferUpdate acknowledges a button press without changing its message
// yet; the next Update edits that message.
func (r *Request) DeferUpdate(ctx context.Context) error {
	_, err := r.send(ctx, &Response{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	return err
}

// Choices answers an autocomplete request.
func (r *Request) Choices(ctx context.Context, c []*discordgo.ApplicationCommandOptionChoice) error {
	_, err := r.send(ctx, &Response{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Choices: c})
	return err
}

func (r *Request) send(ctx context.Context, resp *Response) (*discordgo.Message, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch r.state {
	case stateNew:
		sent, err := r.initial(ctx, resp)
		var de *deferredErr
		if errors.As(err, &de) {
			r.state, r.deferredEphemeral, r.deferredUpdate = stateDeferred, de.ephemeral, de.update
			return r.afterDefer(ctx, resp)
		}
		if err != nil {
			return nil, err
		}
		switch resp.Type {
		case discordgo.InteractionResponseDeferredChannelMessageWithSource:
			r.state, r.deferredEphemeral = stateDeferred, resp.Message != nil && resp.Message.Ephemeral
		case discordgo.InteractionResponseDeferredMessageUpdate:
			r.state, r.deferredUpdate = stateDeferred, true
		default:
			r.state = stateResponded
		}
		return sent, nil
	case stateDeferred:
		return r.afterDefer(ctx, resp)
	default:
		if resp.Message == nil || resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			return nil, nil
		}
		return r.discord.Followup(ctx, r.Interaction, resp.Message)
	}
}

// afterDefer delivers resp once a deferral has been sent. The caller holds mu.
func (r *Request) afterDefer(ctx context.Context, resp *Response) (*discordgo.Message, error) {
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage:
	default:
		return nil, nil // a second deferral or a late autocomplete: nothing to do
	}
	m := resp.Message
	if m.Ephemeral && !r.deferredEphemeral && !r.deferredUpdate {
		// A public "thinking…" cannot turn private: remove it and whisper.
		if err := r.discord.DeleteOriginal(ctx, r.Interaction); err != nil {
			return nil, err
		}
		r.state = stateResponded
		return r.discord.Followup(ctx, r.Interaction, m)
	}
	if m.Ephemeral && r.deferredUpdate {
		// A deferred update keeps the message; the private answer follows.
		r.state = stateResponded
		return r.discord.Followup(ctx, r.Interaction, m)
	}
	// An edit Discord certainly refused leaves the deferral to answer:
	// "thinking…" would otherwise stay, and the next answer (the refusal
	// saying so) go out as a follow-up beside it. One that may have been
	// applied (a timeout, a 502) counts as sent: the next answer must
	// not replace or delete what may be showing.
	sent, err := r.discord.EditOriginal(ctx, r.Interaction, m)
	if err == nil || !refusedEdit(err) {
		r.state = stateResponded
	}
	return sent, err
}

// option returns the named option of the command, or nil.
func (r *Request) option(name string) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range r.options {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// String returns a string option and whether it was given.
func (r *Request) String(name string) (string, bool) {
	o := r.option(name)
	if o == nil {
		return "", false
	}
	s, ok := o.Value.(string)
	return s, ok
}

// Int returns an integer option and whether it was given. Discord sends
// integers as JSON numbers; the console sends them as strings.
func (r *Request) Int(name string) (int, bool, error) {
	o := r.option(name)
	if o == nil {
		return 0, false, nil
	}
	switch v := o.Value.(type) {
	case float64:
		if v != float64(int(v)) {
			return 0, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be a whole number, not %v.", name, v))
		}
		return int(v), true, nil
	case string:
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be a whole number, not %s.", name, Quote(v)))
		}
		return n, true, nil
	}
	return 0, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be a whole number.", name))
}

// Float returns a number option and whether it was given.
func (r *Request) Float(name string) (float64, bool, error) {
	o := r.option(name)
	if o == nil {
		return 0, false, nil
	}
	switch v := o.Value.(type) {
	case float64:
		return v, true, nil
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be a number, not %s.", name, Quote(v)))
		}
		return f, true, nil
	}
	return 0, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be a number.", name))
}

// Bool returns a boolean option and whether it was given.
func (r *Request) Bool(name string) (bool, bool, error) {
	o := r.option(name)
	if o == nil {
		return false, false, nil
	}
	switch v := o.Value.(type) {
	case bool:
		return v, true, nil
	case string:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be true or false, not %s.", name, Quote(v)))
		}
		return b, true, nil
	}
	return false, true, UserErr(ErrBadOption, fmt.Sprintf("`%s` must be true or false.", name))
}

// UserOption returns the user chosen in a user option, resolved from the
// interaction's resolved data, and whether it was given.
func (r *Request) UserOption(name string) (*discordgo.User, bool) {
	o := r.option(name)
	if o == nil {
		return nil, false
	}
	id, _ := o.Value.(string)
	if id == "" {
		return nil, false
	}
	d := r.Interaction.ApplicationCommandData()
	if d.Resolved != nil {
		if u, ok := d.Resolved.Users[id]; ok && u != nil {
			return u, true
		}
		if m, ok := d.Resolved.Members[id]; ok && m != nil && m.User != nil {
			return m.User, true
		}
	}
	return &discordgo.User{ID: id}, true
}

// OptionMember reports whether the user chosen in user option name is a
// member of the interaction's server: Discord resolves a member for each
// user option whose user is one, and only users for the others (someone
// who left, or who was never there). Outside a server, where there are no
// members, and in the console's server, whose people are all in it (the
// board page's local challenges resolve users only), it reports true.
func (r *Request) OptionMember(name string) bool {
	it := r.Interaction
	if it.GuildID == "" || it.GuildID == consoleGuild {
		return true
	}
	o := r.option(name)
	if o == nil {
		return true
	}
	id, _ := o.Value.(string)
	d := it.ApplicationCommandData()
	if d.Resolved == nil {
		return false
	}
	_, ok := d.Resolved.Members[id]
	return ok
}

// Focused returns the option being typed in an autocomplete request and
// what has been typed so far.
func (r *Request) Focused() (name, value string) {
	for _, o := range r.options {
		if o.Focused {
			s, _ := o.Value.(string)
			return o.Name, s
		}
	}
	return "", ""
}

// refusedEdit reports whether err, an edit's failure, says that Discord
// did not apply it: a refusal (4xx) or an outage it certainly did not act
// on (see unapplied).
func refusedEdit(err error) bool {
	var re *restError
	if errors.As(err, &re) && re.Status >= 400 && re.Status < 500 {
		return true
	}
	return unapplied(err)
}
