package commands

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// The board page as a Discord Activity (Options.Activity): every board
// message gets an "Open board" button, which answers with the callback
// that launches the Activity, and the commands gobot registers globally
// include the application's Entry Point command, which Discord handles by
// launching the Activity itself. The page is served by package web.

// Discord's numbers for the Activity, which discordgo does not name: the
// interaction callback LAUNCH_ACTIVITY, the command type
// PRIMARY_ENTRY_POINT and its handler DISCORD_LAUNCH_ACTIVITY.
const (
	launchActivity        discordgo.InteractionResponseType = 12
	primaryEntryPoint     discordgo.ApplicationCommandType  = 4
	discordLaunchActivity                                   = 2
)

// openBoardLabel is the label of the button that opens the Activity.
const openBoardLabel = "Open board"

// btnOpenBoard launches the Activity for the person who pressed it; the
// page finds the channel's game itself.
func (a *App) BtnOpenBoard(ctx context.Context, r *Request) error {
	if !a.opts.Activity {
		return UserErr(ErrStale, "The board page is not set up on this gobot any more: play with the slash commands (`/go play`, `/draughts play`).")
	}
	_, err := r.send(ctx, &Response{Type: launchActivity})
	return err
}

// entryPoint is the Entry Point command: the Activity in the App
// Launcher, launched by Discord.
func entryPoint() *discordgo.ApplicationCommand {
	contexts := []discordgo.InteractionContextType{
		discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
	}
	integrations := []discordgo.ApplicationIntegrationType{
		discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
	}
	return &discordgo.ApplicationCommand{Type: primaryEntryPoint, Name: "launch", Description: "Open the board: play Go or draughts by clicking",
		Contexts: &contexts, IntegrationTypes: &integrations}
}

// withEntryPointHandler adds the handler discordgo cannot write to the
// Entry Point command of an encoded command list that has none (gobot's
// own): Discord launches the Activity (DISCORD_LAUNCH_ACTIVITY). An
// existing command kept as it is keeps its own handler.
func withEntryPointHandler(body json.RawMessage) (json.RawMessage, error) {
	var cmds []map[string]any
	if err := json.Unmarshal(body, &cmds); err != nil {
		return nil, err
	}
	found := false
	for _, c := range cmds {
		if t, _ := c["type"].(float64); int(t) == int(primaryEntryPoint) && c["handler"] == nil {
			c["handler"], found = discordLaunchActivity, true
		}
	}
	if !found {
		return body, nil
	}
	return json.Marshal(cmds)
}

// activityDiscord is the App's Discord when the Activity is set up: each
// board message it sends (one with a Pass button) also gets the Open
// board button.
type activityDiscord struct{ Discord }

// Unwrap is the Discord the Activity's buttons are added to: what it can
// do beyond Discord (look a channel up, list a server's channels) is
// found there (DiscordAs).
func (d activityDiscord) Unwrap() Discord { return d.Discord }

// DiscordAs is d as T, an optional capability of a Discord such as
// looking a channel up, looked for in d and in the Discords d wraps (an
// App with the Activity wraps its Discord to add the Open board button).
func DiscordAs[T any](d Discord) (T, bool) {
	for d != nil {
		if t, ok := d.(T); ok {
			return t, true
		}
		w, ok := d.(interface{ Unwrap() Discord })
		if !ok {
			break
		}
		d = w.Unwrap()
	}
	var zero T
	return zero, false
}

func (d activityDiscord) Callback(ctx context.Context, it *discordgo.Interaction, r *Response) (*discordgo.Message, error) {
	if r.Message != nil {
		r = &Response{Type: r.Type, Message: withOpenBoard(r.Message), Choices: r.Choices}
	}
	return d.Discord.Callback(ctx, it, r)
}

func (d activityDiscord) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	return d.Discord.EditOriginal(ctx, it, withOpenBoard(m))
}

func (d activityDiscord) Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	return d.Discord.Followup(ctx, it, withOpenBoard(m))
}

func (d activityDiscord) SendMessage(ctx context.Context, channelID string, m *Message) (*discordgo.Message, error) {
	return d.Discord.SendMessage(ctx, channelID, withOpenBoard(m))
}

func (d activityDiscord) EditMessage(ctx context.Context, channelID, messageID string, m *Message) error {
	return d.Discord.EditMessage(ctx, channelID, messageID, withOpenBoard(m))
}

// withOpenBoard returns m with an Open board button ("<prefix>/<id>/board":
// "game/" for Go, "draughts/" for draughts; the room routes it to
// BtnOpenBoard) beside the buttons of a board: a game's Resign
// ("<prefix>/<id>/resign/<n>"), a vote game's Vote pass ("vote/<id>/<n>/
// pass") and the count's Resume play ("game/<id>/score/<marking>/resume"),
// where marking dead stones is what the page does best. It goes in that
// button's row, or in a row of its own when the row is full; m itself
// when it shows no board.
func withOpenBoard(m *Message) *Message {
	if m == nil {
		return m
	}
	for i, row := range m.Components {
		ar, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			b, ok := c.(discordgo.Button)
			if !ok {
				continue
			}
			target := openBoardTarget(b.CustomID)
			if target == "" {
				continue
			}
			open := discordgo.Button{Label: openBoardLabel, Style: discordgo.PrimaryButton, CustomID: target}
			out := *m
			out.Components = append([]discordgo.MessageComponent(nil), m.Components...)
			switch {
			case len(ar.Components) < 5:
				buttons := append(append([]discordgo.MessageComponent(nil), ar.Components...), open)
				out.Components[i] = discordgo.ActionsRow{Components: buttons}
			case len(m.Components) < 5:
				out.Components = append(out.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{open}})
			default:
				return m
			}
			return &out
		}
	}
	return m
}

// openBoardTarget is the Open board button's custom ID for a board whose
// button has custom ID id, or "" when id is none of those withOpenBoard
// looks for.
func openBoardTarget(id string) string {
	parts := strings.Split(id, "/")
	switch {
	case len(parts) == 4 && parts[2] == "resign":
		return parts[0] + "/" + parts[1] + "/board"
	case len(parts) == 4 && parts[0] == "vote" && parts[3] == "pass":
		return "game/" + parts[1] + "/board"
	case len(parts) == 5 && parts[0] == "game" && parts[2] == "score" && parts[4] == "resume":
		return "game/" + parts[1] + "/board"
	}
	return ""
}
