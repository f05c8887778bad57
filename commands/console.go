package commands

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/gobot-dev/gobot/storage"
)

// ConsoleOptions configure RunConsole.
type ConsoleOptions struct {
	In  io.Reader
	Out io.Writer
	// User is the name of the user typing (default "player").
	User  string
	Store Store
	// BoardDir is the folder each board PNG is written to ("" for none).
	BoardDir string
	// StateFile, when set, keeps the console's state across restarts
	// (JSON): its users' names, so that mentions of them read as names,
	// and the last ID it handed out, so that no interaction, and so no
	// game, ever gets an ID again, whatever the clock does.
	StateFile string
	Options   Options // Logger, TTLs, Now, Rooms; Discord and Store are set by RunConsole
	// Web, when set, is called with the App before the first prompt: it
	// serves the board page beside the console and returns its address
	// (printed for the user) and how to stop it. sessionKey signs the
	// page's sign-ins (web.Options.SessionKey): kept in StateFile, so a
	// tab signed in stays signed in when the console restarts; nil (a
	// key for this run only) without a StateFile.
	Web func(app *App, sessionKey []byte) (url string, stop func(), err error)
}

// Console identifiers: one server with one channel.
const (
	consoleAppID   = "100000000000000001"
	consoleGuild   = "100000000000000002"
	consoleChannel = "100000000000000003"
)

// RunConsole is a terminal session with the real commands layer: it reads
// slash commands as text ("/go bot level:easy size:9", "/go play move:E5"),
// turns each into the interaction Discord would send, hands it to App.Handle
// and prints what gobot answers through a Discord that writes to Out,
// drawing each board as text and saving its PNG in BoardDir. "/press N"
// presses the N-th button of the last message, "/as NAME" switches user,
// and an option value ending in "?" asks for autocomplete suggestions.
// While it runs, so does the App's background work (App.Run: losses on
// time, reminders, scoring deadlines, challenge expiry, owed bot moves),
// which prints its announcements as they happen; /quit, EOF and ctx stop it
// before RunConsole returns.
func RunConsole(ctx context.Context, co ConsoleOptions) error {
	if co.User == "" {
		co.User = "player"
	}
	if co.BoardDir != "" {
		if err := os.MkdirAll(co.BoardDir, 0o755); err != nil {
			return fmt.Errorf("commands: console board folder: %w", err)
		}
	}
	now := co.Options.Now
	if now == nil {
		now = time.Now
	}
	cd := &consoleDiscord{out: co.Out, dir: co.BoardDir, games: co.Store, names: map[string]string{}, stateFile: co.StateFile, now: now}
	if err := cd.loadState(); err != nil {
		return err
	}
	if co.StateFile != "" && len(cd.sessionKey) == 0 {
		cd.sessionKey = make([]byte, 32)
		rand.Read(cd.sessionKey)
		cd.mu.Lock()
		cd.saveState()
		cd.mu.Unlock()
	}
	cd.msgs = lastSaved(co.BoardDir)
	opts := co.Options
	opts.AppID, opts.Discord, opts.Store = consoleAppID, cd, co.Store
	bot, err := New(opts)
	if err == nil {
		cd.text = func(g *storage.Game) string { return bot.roomOf(g).Text(g) }
		cd.finished = func(channel, name string) string {
			// The channel's list has no records: the game's own entry has.
			games, err := bot.archive.ChannelGames(context.Background(), channel, 1)
			if err != nil || len(games) == 0 || !strings.Contains(name, "-"+games[0].ID+"-") {
				return ""
			}
			arc, err := bot.archive.ArchivedGame(context.Background(), games[0].ID)
			if err != nil {
				return ""
			}
			return bot.RoomOfKind(arc.Kind).FinishedText(arc)
		}
	}
	if err != nil {
		return err
	}
	defer bot.Shutdown(context.Background())
	// The background work the real bot runs (clocks' scheduler, owed bot
	// moves, sweeps) runs for the console's lifetime and stops with it.
	runCtx, stop := context.WithCancel(ctx)
	running := make(chan struct{})
	go func() {
		defer close(running)
		if err := bot.Run(runCtx); err != nil {
			bot.log.Error("console: background work", "err", err)
		}
	}()
	defer func() { stop(); <-running }()
	defs := bot.Definitions()
	user := cd.user(co.User)
	cd.printf("gobot console: you are %s. Type /go help, /press N for buttons, /as NAME to switch user, /quit to leave.\n", user.Username)
	if co.Web != nil {
		url, stopWeb, err := co.Web(bot, cd.sessionKey)
		if err != nil {
			cd.printf("(the board page could not start: %v)\n", err)
		} else {
			defer stopWeb()
			cd.printf("Board in your browser: %s (sign in as %s to play as yourself here)\n", url, user.Username)
		}
	}
	// Lines are read one at a time, when the prompt asks for one, by a
	// goroutine: a read from a terminal or a pipe cannot be cancelled, and
	// the prompt must give way to ctx (Ctrl-C, SIGTERM) while it waits, not
	// at the next Enter. The goroutine, left blocked in its read, ends with
	// the process.
	sc := bufio.NewScanner(co.In)
	ask, lines := make(chan struct{}), make(chan string, 1)
	var readErr error // set before lines is closed
	go func() {
		defer close(lines)
		for range ask {
			if !sc.Scan() {
				readErr = sc.Err()
				return
			}
			lines <- sc.Text()
		}
	}()
	defer close(ask)
	for {
		if ctx.Err() != nil {
			return nil
		}
		cd.printf("%s> ", user.Username)
		ask <- struct{}{}
		var text string
		var ok bool
		select {
		case <-ctx.Done():
			cd.printf("\n")
			return nil
		case text, ok = <-lines:
		}
		if !ok {
			cd.printf("\n")
			return readErr
		}
		line := strings.TrimSpace(text)
		if ctx.Err() != nil {
			return nil
		}
		switch {
		case line == "":
			continue
		case line == "/quit" || line == "/exit":
			return nil
		case line == "/as":
			cd.printf("Say who you are now: /as NAME (you are %s).\n", user.Username)
			continue
		case strings.HasPrefix(line, "/as "):
			user = cd.user(strings.TrimSpace(strings.TrimPrefix(line, "/as ")))
			cd.printf("You are now %s.\n", user.Username)
			continue
		}
		it, err := cd.interaction(line, defs, user)
		if err != nil {
			cd.printf("%v\n", err)
			continue
		}
		bot.Handle(ctx, it)
	}
}

// lastSaved returns the highest number that starts a file name in dir
// ("012-…"), 0 when there is none, so that a new session's files follow
// those of the sessions before it instead of replacing them.
func lastSaved(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	most := 0
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "-")
		if n, err := strconv.Atoi(num); ok && err == nil && n > most {
			most = n
		}
	}
	return most
}

// ConsoleDiscordUser is the console's user called name (in any case),
// with a stable ID made from the name. The ID is below 2^48: read as a
// Discord snowflake it would date from Discord's first day (its first 19
// hours, 2015-01-01), before any Discord user, so that a console user is
// never taken for one, even in a database shared with a Discord gobot.
func ConsoleDiscordUser(name string) *discordgo.User {
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(name)))
	id := strconv.FormatUint(h.Sum64()%(1<<48-1)+1, 10)
	return &discordgo.User{ID: id, Username: name, GlobalName: name}
}

// user returns the console user called name, remembering the name.
func (cd *consoleDiscord) user(name string) *discordgo.User {
	u := ConsoleDiscordUser(name)
	cd.mu.Lock()
	cd.remember(u.ID, u.Username)
	cd.mu.Unlock()
	return u
}

// remember keeps a user's name, in StateFile too when it is new. The
// caller holds mu.
func (cd *consoleDiscord) remember(id, name string) {
	if cd.names[id] == name {
		return
	}
	cd.names[id] = name
	cd.saveState()
}

// learn keeps the names of the people in a board page's interaction: who
// acts (signed in by name) and the others it names (a challenge's
// opponent), so that the console's mentions of them read as @name.
func (cd *consoleDiscord) learn(it *discordgo.Interaction, names map[string]string) {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	if u := it.Member; u != nil && u.User != nil {
		cd.remember(u.User.ID, u.User.Username)
	}
	for id, n := range names {
		cd.remember(id, n)
	}
}

// consoleState is what StateFile holds.
type consoleState struct {
	Names  map[string]string `json:"names"` // user ID -> name
	LastID int64             `json:"last_id,string"`
	// SessionKey signs the board page's sign-ins (ConsoleOptions.Web).
	SessionKey []byte `json:"session_key,omitempty"`
}

// saveState writes StateFile, saying so when it cannot. The caller holds mu.
func (cd *consoleDiscord) saveState() {
	if cd.stateFile == "" {
		return
	}
	data, err := json.MarshalIndent(consoleState{Names: cd.names, LastID: cd.lastID, SessionKey: cd.sessionKey}, "", "  ")
	if err == nil {
		err = writePrivate(cd.stateFile, data)
	}
	if err != nil {
		fmt.Fprintf(cd.out, "(could not save the console state in %s: %v)\n", cd.stateFile, err)
	}
}

// writePrivate replaces the file at path with data, readable by its owner
// only (it holds the key that signs the board page's sign-ins): written
// to a new 0600 file beside it, then renamed over it, so that the key is
// never in a file others may read (one written before the key was kept
// was 0644) and a crash mid-write leaves the old file whole.
func writePrivate(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a rename, there is nothing left to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// loadState reads StateFile; a missing file is a fresh state.
func (cd *consoleDiscord) loadState() error {
	if cd.stateFile == "" {
		return nil
	}
	data, err := os.ReadFile(cd.stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var st consoleState
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		return fmt.Errorf("commands: console state %s: %w", cd.stateFile, err)
	}
	if st.Names != nil {
		cd.names = st.Names
	}
	cd.lastID = st.LastID
	cd.sessionKey = st.SessionKey
	return nil
}

// discordEpoch is the start of Discord's snowflakes (2015-01-01, in ms).
const discordEpoch = 1420070400000

// nextID returns a new snowflake for an interaction or a message: the time
// in milliseconds since Discord's epoch above 22 bits of sequence, as
// Discord makes them, always above the previous one (kept in StateFile).
// Games take their interaction's ID, so IDs must not repeat after a
// restart. The caller holds mu.
func (cd *consoleDiscord) nextID() string {
	ms := cd.now().UnixMilli() - discordEpoch
	id := max(ms<<22, cd.lastID+1)
	cd.lastID = id
	cd.saveState()
	return strconv.FormatInt(id, 10)
}

// consoleDiscord is the Discord of the console: it prints.
type consoleDiscord struct {
	out   io.Writer
	dir   string
	games Games // reads the game whose board a PNG shows, to print it as text
	text  func(*storage.Game) string
	// finished draws the last game finished in a channel as text when a
	// picture named after it shows there ("" otherwise).
	finished func(channel, name string) string

	stateFile  string
	sessionKey []byte // see consoleState
	now        func() time.Time

	mu      sync.Mutex
	buttons []discordgo.Button
	lastMsg *discordgo.Message
	msgs    int
	lastID  int64             // the last snowflake handed out
	names   map[string]string // user ID -> name, for showing mentions
}

var _ Discord = (*consoleDiscord)(nil)

func (cd *consoleDiscord) printf(format string, a ...any) {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	fmt.Fprintf(cd.out, format, a...)
}

// consolePermissions are gobot's permissions in the console's channel, as
// Discord would send them: it may post boards and files, but not start
// threads, which the console cannot show.
const consolePermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory | discordgo.PermissionAddReactions

// consoleMemberPermissions are every console user's: the console is one
// server whose every user is its admin (Manage Server) and moderator.
const consoleMemberPermissions = discordgo.PermissionManageMessages | discordgo.PermissionManageServer

// interaction parses a console line into the interaction Discord would send.
func (cd *consoleDiscord) interaction(line string, defs []*discordgo.ApplicationCommand, user *discordgo.User) (*discordgo.Interaction, error) {
	cd.mu.Lock()
	id := cd.nextID()
	cd.mu.Unlock()
	it := &discordgo.Interaction{
		ID: id, AppID: consoleAppID, Token: "console-" + id,
		GuildID: consoleGuild, ChannelID: consoleChannel, Version: 1,
		Member: &discordgo.Member{User: user, Permissions: consoleMemberPermissions},
		// What gobot may do in the console's one channel: all but start
		// threads (it has none), so thread:true is refused at once there.
		AppPermissions: consolePermissions,
	}
	if strings.HasPrefix(line, "/press") {
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "/press")))
		cd.mu.Lock()
		defer cd.mu.Unlock()
		switch {
		case len(cd.buttons) == 0:
			return nil, errors.New("the last message has no buttons: `/go board` (`/draughts board` for draughts) shows the game here with its buttons")
		case err != nil || n < 1 || n > len(cd.buttons):
			return nil, fmt.Errorf("press which button? give its number, 1 to %d", len(cd.buttons))
		}
		bt := cd.buttons[n-1]
		if bt.Disabled {
			return nil, fmt.Errorf("the %q button is disabled", bt.Label)
		}
		it.Type = discordgo.InteractionMessageComponent
		it.Data = discordgo.MessageComponentInteractionData{CustomID: bt.CustomID, ComponentType: discordgo.ButtonComponent}
		it.Message = cd.lastMsg
		if cd.lastMsg != nil && cd.lastMsg.ChannelID != "" {
			// A board of a game started on the board page: its buttons
			// act in that game's channel.
			it.ChannelID = cd.lastMsg.ChannelID
		}
		if strings.HasPrefix(bt.CustomID, "channel:") {
			return nil, errors.New("that button opens a link")
		}
		return it, nil
	}
	cd.mu.Lock()
	data, focused, err := ParseSlash(line, defs, cd.remember)
	cd.mu.Unlock()
	if err != nil {
		return nil, err
	}
	it.Type = discordgo.InteractionApplicationCommand
	if focused {
		it.Type = discordgo.InteractionApplicationCommandAutocomplete
	}
	it.Data = data
	return it, nil
}

// parseSlash reads "/go sub name:value ..." against the command
// definitions, typing each value as Discord would and checking required
// options, as the Discord client does before sending.
func ParseSlash(line string, defs []*discordgo.ApplicationCommand, remember func(id, name string)) (discordgo.ApplicationCommandInteractionData, bool, error) {
	var data discordgo.ApplicationCommandInteractionData
	words := strings.Fields(line)
	if len(words) == 0 || !strings.HasPrefix(words[0], "/") {
		return data, false, errors.New("commands start with /, like /go help")
	}
	var cmd *discordgo.ApplicationCommand
	for _, d := range defs {
		if "/"+d.Name == words[0] {
			cmd = d
		}
	}
	if cmd == nil {
		return data, false, fmt.Errorf("unknown command %s: try /go help", words[0])
	}
	if len(words) < 2 {
		return data, false, fmt.Errorf("%s needs a subcommand, like %s help", words[0], words[0])
	}
	var sub *discordgo.ApplicationCommandOption
	for _, o := range cmd.Options {
		if o.Name == words[1] {
			sub = o
		}
	}
	if sub == nil {
		return data, false, fmt.Errorf("unknown subcommand %q: try %s help", words[1], words[0])
	}
	data.ID, data.Name, data.CommandType = "300000000000000001", cmd.Name, discordgo.ChatApplicationCommand
	// Each user named is resolved as a member too, as Discord resolves
	// the members of the server an interaction comes from: everyone
	// typed in is a member of the console's server.
	data.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}, Members: map[string]*discordgo.Member{}}
	leaf := &discordgo.ApplicationCommandInteractionDataOption{Name: sub.Name, Type: sub.Type}
	top, rest := leaf, words[2:]
	// cmdName is the command as typed up to its subcommand: "/go play",
	// "/go-admin settings set".
	cmdName := words[0] + " " + sub.Name
	// A group's subcommand is the next word: /go-admin settings set.
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
		var inner *discordgo.ApplicationCommandOption
		for _, o := range sub.Options {
			if len(rest) > 0 && o.Name == rest[0] {
				inner = o
			}
		}
		if inner == nil {
			var names []string
			for _, o := range sub.Options {
				names = append(names, o.Name)
			}
			return data, false, fmt.Errorf("%s %s needs one of %s", words[0], sub.Name, strings.Join(names, ", "))
		}
		leaf = &discordgo.ApplicationCommandInteractionDataOption{Name: inner.Name, Type: inner.Type}
		top.Options = []*discordgo.ApplicationCommandInteractionDataOption{leaf}
		sub, rest = inner, rest[1:]
		cmdName += " " + inner.Name
	}
	focused := false
	seen := map[string]bool{}
	// A word without a colon continues the value before it, so that values
	// with spaces can be typed: clock:byoyomi 10m 5x30s.
	var parts []string
	for _, w := range rest {
		if !strings.Contains(w, ":") && len(parts) > 0 {
			parts[len(parts)-1] += " " + w
			continue
		}
		parts = append(parts, w)
	}
	for _, w := range parts {
		name, val, ok := strings.Cut(w, ":")
		if !ok {
			return data, false, fmt.Errorf("write options as name:value, not %q", w)
		}
		var def *discordgo.ApplicationCommandOption
		for _, o := range sub.Options {
			if o.Name == name {
				def = o
			}
		}
		if def == nil {
			// Name the options, as Discord's list shows them, so that
			// a name mistyped (colour for color) shows the right one.
			names := make([]string, len(sub.Options))
			for i, o := range sub.Options {
				names[i] = o.Name
			}
			if len(names) == 0 {
				return data, false, fmt.Errorf("%s has no option %q: it takes none", cmdName, name)
			}
			return data, false, fmt.Errorf("%s has no option %q: its options are %s", cmdName, name, strings.Join(names, ", "))
		}
		if seen[name] {
			// Discord's client sends each option once.
			return data, false, fmt.Errorf("%s: %s: is given twice", cmdName, name)
		}
		seen[name] = true
		opt := &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: def.Type}
		if strings.HasSuffix(val, "?") && def.Autocomplete {
			opt.Focused, opt.Value, focused = true, strings.TrimSuffix(val, "?"), true
			leaf.Options = append(leaf.Options, opt)
			continue
		}
		if len(def.Choices) > 0 {
			found := false
			for _, c := range def.Choices {
				if fmt.Sprint(c.Value) == val {
					found = true
				}
			}
			if !found && strings.HasSuffix(val, "?") {
				// The list Discord shows: each choice as it reads there.
				var shown []string
				for _, c := range def.Choices {
					if v := fmt.Sprint(c.Value); strings.HasPrefix(c.Name, v) {
						shown = append(shown, c.Name)
					} else {
						shown = append(shown, v+": "+c.Name)
					}
				}
				return data, false, fmt.Errorf("%s: choose one of\n  %s", name, strings.Join(shown, "\n  "))
			}
			if !found {
				var vals []string
				for _, c := range def.Choices {
					vals = append(vals, fmt.Sprint(c.Value))
				}
				return data, false, fmt.Errorf("%s must be one of %s", name, strings.Join(vals, ", "))
			}
		}
		switch def.Type {
		case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
			// A minus sign as gobot writes numbers ("komi −3.5", U+2212),
			// copied back into the console, is a minus.
			f, err := strconv.ParseFloat(strings.Replace(val, "\u2212", "-", 1), 64)
			if err != nil {
				return data, false, fmt.Errorf("%s must be a number", name)
			}
			opt.Value = f
		case discordgo.ApplicationCommandOptionBoolean:
			b, err := strconv.ParseBool(val)
			if err != nil {
				return data, false, fmt.Errorf("%s must be true or false", name)
			}
			opt.Value = b
		case discordgo.ApplicationCommandOptionUser:
			u := ConsoleDiscordUser(strings.TrimLeftFunc(val, func(r rune) bool { return r == '@' || unicode.IsSpace(r) }))
			if remember != nil {
				remember(u.ID, u.Username)
			}
			data.Resolved.Users[u.ID] = u
			// Every console user is the server's admin (consoleMember),
			// the one named too: as on a server, an admin cannot be
			// banned, nor lift a ban of their own.
			data.Resolved.Members[u.ID] = &discordgo.Member{Permissions: consoleMemberPermissions}
			opt.Value = u.ID
		default:
			opt.Value = val
		}
		leaf.Options = append(leaf.Options, opt)
	}
	if !focused {
		for _, o := range sub.Options {
			if o.Required && !seen[o.Name] {
				return data, false, fmt.Errorf("%s needs %s:", cmdName, o.Name)
			}
		}
	}
	data.Options = []*discordgo.ApplicationCommandInteractionDataOption{top}
	return data, focused, nil
}

// show prints a message of channel: content, embeds, the board as text,
// buttons.
func (cd *consoleDiscord) show(where, channel string, m *Message) *discordgo.Message {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	cd.msgs++
	msg := &discordgo.Message{ID: cd.nextID(), ChannelID: channel, Content: m.Content}
	w := cd.out
	prefix := "gobot"
	if m.Ephemeral {
		prefix += " (only you)"
	}
	if where != "" {
		prefix += " " + where
	}
	fmt.Fprintf(w, "── %s ──\n", prefix)
	if m.Content != "" {
		fmt.Fprintln(w, cd.plain(m.Content))
	}
	for _, e := range m.Embeds {
		if e.Title != "" {
			fmt.Fprintf(w, "%s\n", e.Title)
		}
		if e.Description != "" {
			fmt.Fprintln(w, cd.plain(e.Description))
		}
		for _, f := range e.Fields {
			fmt.Fprintf(w, "%s\n%s\n", f.Name, cd.plain(f.Value))
		}
	}
	for _, f := range m.Files {
		if strings.HasSuffix(f.Name, ".png") {
			// The game in play here, drawn as text under its own board
			// (named after its ID); another picture (a finished game's,
			// an estimate, a review) is not that game.
			if g, err := cd.games.Game(context.Background(), channel); err == nil && strings.Contains(f.Name, "-"+g.ID+"-") {
				fmt.Fprint(w, cd.text(g))
			} else if cd.finished != nil {
				// The last board of a game just over (or /go board's
				// of the last one): its final position.
				fmt.Fprint(w, cd.finished(channel, f.Name))
			}
		}
		if cd.dir != "" {
			path := filepath.Join(cd.dir, fmt.Sprintf("%03d-%s", cd.msgs, filepath.Base(f.Name)))
			if err := os.WriteFile(path, f.Data, 0o644); err != nil {
				fmt.Fprintf(w, "(could not save %s: %v)\n", f.Name, err)
			} else {
				fmt.Fprintf(w, "(saved %s)\n", path)
			}
		} else {
			fmt.Fprintf(w, "(attachment %s, %d bytes)\n", f.Name, len(f.Data))
		}
	}
	var labels []string
	if len(m.Components) == 0 && where != "(edited message)" {
		// /press presses a button of the last message: a message
		// without any (an answer, help) leaves none to press, rather
		// than an older message's (an edit of an older message, which
		// is not the last, leaves them).
		cd.buttons, cd.lastMsg = nil, nil
	}
	if len(m.Components) > 0 {
		cd.buttons = cd.buttons[:0]
		for _, row := range m.Components {
			ar, ok := row.(discordgo.ActionsRow)
			if !ok {
				continue
			}
			var comps []discordgo.MessageComponent
			for _, c := range ar.Components {
				if bt, ok := c.(discordgo.Button); ok {
					cd.buttons = append(cd.buttons, bt)
					state := ""
					if bt.Disabled {
						state = " (disabled)"
					}
					labels = append(labels, fmt.Sprintf("[%d] %s%s", len(cd.buttons), bt.Label, state))
					b := bt
					comps = append(comps, &b)
				}
			}
			msg.Components = append(msg.Components, &discordgo.ActionsRow{Components: comps})
		}
		fmt.Fprintf(w, "%s   (/press N)\n", strings.Join(labels, "  "))
		cd.lastMsg = msg
	}
	return msg
}

var (
	mentionRe   = regexp.MustCompile(`<(@!?|@&|#)(\d+)>`)
	timestampRe = regexp.MustCompile(`<t:(-?\d+)(?::([tTdDfFR]))?>`)
)

// plain shows Discord markup as a terminal can: user mentions as @name
// (role and channel mentions as @role and #channel), timestamps in every
// style Discord has (<t:UNIX:R> as "in 5 minutes" or "3 hours ago"), no
// bold or subtext marks. The caller holds mu.
func (cd *consoleDiscord) plain(s string) string {
	s = mentionRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := mentionRe.FindStringSubmatch(m)
		switch sub[1] {
		case "@&":
			return "@role"
		case "#":
			if sub[2] == consoleChannel {
				return "#console"
			}
			return "#channel"
		}
		if n, ok := cd.names[sub[2]]; ok {
			return "@" + n
		}
		return "@user"
	})
	s = timestampRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := timestampRe.FindStringSubmatch(m)
		sec, err := strconv.ParseInt(sub[1], 10, 64)
		if err != nil {
			return m
		}
		return discordTime(time.Unix(sec, 0).In(time.Local), sub[2], cd.now())
	})
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "-# ", "")
	return s
}

// discordTime writes t as Discord shows a timestamp of the given style
// (t, T, d, D, f, F, R; f when empty) to someone whose clock reads now.
func discordTime(t time.Time, style string, now time.Time) string {
	switch style {
	case "t":
		return t.Format("15:04")
	case "T":
		return t.Format("15:04:05")
	case "d":
		return t.Format("2006-01-02")
	case "D":
		return t.Format("2 January 2006")
	case "F":
		return t.Format("Monday, 2 January 2006 15:04")
	case "R":
		// Rounded to the nearest unit, a unit up once most of it has
		// passed, as Discord (like moment.js) shows relative times: 90
		// minutes is "in 2 hours", 2 days 23 hours "in 3 days".
		d := t.Sub(now)
		past := d < 0
		if past {
			d = -d
		}
		day := 24 * time.Hour
		round := func(u time.Duration) int64 { return int64((d + u/2) / u) }
		var n int64
		var unit string
		switch {
		case d < 45*time.Second:
			n, unit = round(time.Second), "second"
		case d < 45*time.Minute:
			n, unit = max(round(time.Minute), 1), "minute"
		case d < 22*time.Hour:
			n, unit = max(round(time.Hour), 1), "hour"
		case d < 26*day:
			n, unit = max(round(day), 1), "day"
		case d < 320*day:
			n, unit = max(round(30*day), 1), "month"
		default:
			n, unit = max(round(365*day), 1), "year"
		}
		if n == 0 {
			return "just now" // "0 seconds ago" reads as a slip
		}
		if n != 1 {
			unit += "s"
		}
		if past {
			return fmt.Sprintf("%d %s ago", n, unit)
		}
		return fmt.Sprintf("in %d %s", n, unit)
	}
	return t.Format("2 January 2006 15:04")
}

func (cd *consoleDiscord) Callback(ctx context.Context, it *discordgo.Interaction, r *Response) (*discordgo.Message, error) {
	switch r.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		cd.printf("(gobot is thinking…)\n")
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		var names []string
		for _, c := range r.Choices {
			// Discord sends the value of the choice picked, which the
			// console's user types: a label that is not its value (a
			// finished game's "vs @bob · 9×9 · …") says what to type.
			if v := fmt.Sprint(c.Value); v != c.Name {
				names = append(names, fmt.Sprintf("%s (type %s)", c.Name, v))
				continue
			}
			names = append(names, c.Name)
		}
		if len(names) == 0 {
			names = []string{"(no suggestions)"}
		}
		cd.printf("suggestions: %s\n", strings.Join(names, ", "))
	case discordgo.InteractionResponseUpdateMessage:
		if m := r.Message; m != nil && m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 && len(m.Components) == 0 {
			// An update that only takes the pressed buttons away (a
			// confirmed resignation's question) has nothing to show: no
			// empty block, and its buttons are gone.
			cd.mu.Lock()
			cd.buttons, cd.lastMsg = nil, nil
			cd.mu.Unlock()
			return &discordgo.Message{ChannelID: it.ChannelID}, nil
		}
		return cd.show("(updated message)", it.ChannelID, r.Message), nil
	default:
		if r.Message != nil {
			return cd.show(elsewhere(it.ChannelID), it.ChannelID, r.Message), nil
		}
	}
	return nil, nil
}

func (cd *consoleDiscord) EditOriginal(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	return cd.show(elsewhere(it.ChannelID), it.ChannelID, m), nil
}

func (cd *consoleDiscord) Original(ctx context.Context, it *discordgo.Interaction) (*discordgo.Message, error) {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	cd.msgs++
	return &discordgo.Message{ID: cd.nextID(), ChannelID: it.ChannelID}, nil
}

func (cd *consoleDiscord) DeleteOriginal(ctx context.Context, it *discordgo.Interaction) error {
	return nil
}

func (cd *consoleDiscord) Followup(ctx context.Context, it *discordgo.Interaction, m *Message) (*discordgo.Message, error) {
	return cd.show(elsewhere(it.ChannelID), it.ChannelID, m), nil
}

func (cd *consoleDiscord) SendMessage(ctx context.Context, channelID string, m *Message) (*discordgo.Message, error) {
	return cd.show(elsewhere(channelID), channelID, m), nil
}

// elsewhere is how the console heads a message of channel: nothing for
// its own, a word for a game started on the board page (which has a
// channel of its own).
func elsewhere(channel string) string {
	if channel == consoleChannel {
		return ""
	}
	return "(a game on the board page)"
}

func (cd *consoleDiscord) EditMessage(ctx context.Context, channelID, messageID string, m *Message) error {
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 && len(m.Components) == 0 {
		// An edit that only takes buttons or a notice away (an old board's
		// once the game ends) has nothing to show: no empty block.
		return nil
	}
	cd.show("(edited message)", channelID, m)
	return nil
}

// followConsole finds, for a command typed in the console whose channel
// has no game in play, the game its user plays elsewhere on this
// computer: a game started on the board page has a channel of its own,
// which the console's one channel is not, so the console follows its
// users there. With the user in exactly one such game, it moves r into
// that game's channel (the command acts, and is answered, as if typed
// there) and returns the game; else nil.
func (a *App) followConsole(ctx context.Context, r *Request) *storage.Game {
	it := r.Interaction
	if it.GuildID != consoleGuild || it.ChannelID != consoleChannel || r.User == nil {
		return nil
	}
	games, err := a.games.PlayerActiveGames(ctx, r.User.ID)
	if err != nil {
		return nil
	}
	var found *storage.Game
	for _, g := range games {
		if g.GuildID != consoleGuild || g.ChannelID == consoleChannel {
			continue
		}
		if found != nil {
			return nil // which one is meant? The page says.
		}
		found = g
	}
	if found != nil {
		it.ChannelID = found.ChannelID
	}
	return found
}

// consoleChannelInfo is the console's channel as Discord would describe
// it: a text channel named console, the only one of its server.
func consoleChannelInfo() *discordgo.Channel {
	return &discordgo.Channel{ID: consoleChannel, GuildID: consoleGuild, Name: "console", Type: discordgo.ChannelTypeGuildText}
}

// GuildChannels lists the console's server's channels, for a game
// channels setting typed as names (#console).
func (cd *consoleDiscord) GuildChannels(ctx context.Context, guildID string) ([]*discordgo.Channel, error) {
	if guildID != consoleGuild {
		return nil, ErrDiscordNotFound
	}
	return []*discordgo.Channel{consoleChannelInfo()}, nil
}

// Channel looks a channel up: the console's; any other is unknown, as a
// channel of no server gobot is in.
func (cd *consoleDiscord) Channel(ctx context.Context, id string) (*discordgo.Channel, error) {
	if id != consoleChannel {
		return nil, ErrDiscordNotFound
	}
	return consoleChannelInfo(), nil
}

func (cd *consoleDiscord) StartThread(ctx context.Context, channelID, name string) (*discordgo.Channel, error) {
	return nil, fmt.Errorf("commands: the console has no threads: %w", ErrDiscordForbidden)
}

func (cd *consoleDiscord) OverwriteCommands(ctx context.Context, appID, guildID string, cmds []*discordgo.ApplicationCommand) error {
	return nil
}
