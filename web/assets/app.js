// app.js is gobot's board page: it signs in (by name on a local gobot, or
// through Discord's Embedded App SDK inside an Activity), keeps a
// WebSocket to gobot, draws the game it is told about and sends clicks.
// The server decides everything: the page shows its state as it comes and
// its refusals as they are written.
import { Board } from './board.js';
import { DraughtsBoard } from './draughts.js';

const $ = (id) => document.getElementById(id);
const st = {
  session: '', user: null, local: false, home: '', channel: '', view: null, receivedAt: 0,
  games: [], offers: [], people: [], levels: [], clocks: [], ws: null, nextId: 1, retry: 0,
  hover: null, pending: null, lastAnnounced: '', fatal: false, other: '',
  sel: null, // draughts: the piece chosen ({from}), and the ways to a square with two ({from, to, ways})
  said: 0, sent: {}, // how many times the message changed; its count when each action was sent
  sentAt: {}, // the game's number of moves when each action was sent
  answered: {}, // the local challenges answered here, by ID: the answer's ID
  kept: -1, // the message's count when it was said of the game shown, to stay
  keptChallenge: false, // the message kept says a challenge was sent: it goes once a game shows
  saidAt: 0, // the game's version the message speaks of
  reveal: false, // a game was chosen: scroll it into view once it shows
  withdrew: '', // the game whose undo request this page withdrew
  asking: 'resign', // what the question under the controls confirms: 'resign' or 'abort'
  findMine: false, // a local page just signed in: open the user's own game once the list comes
  quiet: {}, // the actions sent whose answer, done, is not shown: the page shows what they did
  welcomed: false, // gobot welcomed the session of the last sign-in
  signingIn: false, retryTimer: 0, retryWith: null, // a sign-in inside Discord under way; its next try; Retry's
};

function show(id, on) { $(id).hidden = !on; }

// fatal stops the page with text; retry, when given, is what its Retry
// button does (inside Discord, where the page cannot be reloaded).
function fatal(text, retry) {
  clearTimeout(st.retryTimer);
  st.retryWith = retry || null;
  show('retry-line', !!retry);
  $('retry-note').textContent = '';
  st.fatal = true;
  sessionStorage.removeItem('gobot-session'); // a reload signs in afresh
  $('me').textContent = ''; // signed in no more
  $('fatal').textContent = text;
  show('fatal', true);
  show('main', false);
  show('signin', false);
  if (st.ws) st.ws.close();
}

// api calls gobot's API. Its errors carry the server's sentence, and
// retry: 'auto' when trying again in a moment may work (gobot or Discord
// unreachable or overloaded), 'no' when only gobot's admin can mend it.
async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw Object.assign(new Error(e.message), { retry: 'auto' });
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(data.error || `gobot answered ${r.status}.`), { retry: data.retry || (!data.error && r.status >= 500 ? 'auto' : '') });
  return data;
}

// ---- signing in ----------------------------------------------------

async function main() {
  let cfg;
  try {
    cfg = await api('api/config');
  } catch (e) {
    fatal('gobot cannot be reached: ' + e.message, () => { show('fatal', false); show('retry-line', false); main(); });
    return;
  }
  const inDiscord = new URLSearchParams(location.search).has('frame_id') || window.__gobotSDK;
  if (inDiscord && cfg.discord) {
    discord = { clientId: cfg.client_id, sdk: null, authenticated: false };
    discordSignIn(0);
  } else if (cfg.local) {
    localSignIn();
  } else if (cfg.discord) {
    fatal("Open this board from Discord: press Open board under a game's board. Signing in by name works only beside gobot's console (gobot console), on its computer.");
  } else {
    // Without the client secret there is no Activity, so no board message
    // has an Open board button to send the user to.
    fatal("This board page is not set up for Discord on this server: its admin must set up gobot's Activity (DISCORD_CLIENT_SECRET, see \"The board page\" in gobot's README). Until then, play with /go and /draughts in Discord. Signing in by name works only beside gobot's console (gobot console), on its computer.");
  }
}

// discord is the sign-in inside Discord: the SDK once ready, kept to sign
// in again.
let discord = null;

// signInWaits are the waits before each try again of a sign-in Discord
// (or gobot) failed for a moment; after them the page offers Retry.
const signInWaits = [1000, 2000, 4000, 8000];

// discordSignIn signs in through Discord's SDK: at the start, and again
// when the session ran out (a page offline for long) or is no longer
// valid; Discord already knows the user, so authorize asks nothing
// (prompt 'none'). A failure of the moment is tried again by itself
// (signInWaits); any other shows with a Retry button, unless only
// gobot's admin can mend it.
async function discordSignIn(attempt) {
  clearTimeout(st.retryTimer);
  st.signingIn = true;
  try {
    if (!discord.sdk) {
      let sdk;
      if (window.__gobotSDK) {
        sdk = window.__gobotSDK(discord.clientId); // tests stand in for Discord
      } else {
        const m = await import('./sdk/index.mjs');
        sdk = new m.DiscordSDK(discord.clientId);
      }
      await sdk.ready();
      discord.sdk = sdk;
    }
    const sdk = discord.sdk;
    const { state } = await api('api/state');
    const { code } = await sdk.commands.authorize({ client_id: discord.clientId, response_type: 'code', state, prompt: 'none', scope: ['identify'] });
    const res = await api('api/token', { code, state, instance_id: sdk.instanceId });
    if (!discord.authenticated) {
      await sdk.commands.authenticate({ access_token: res.access_token });
      discord.authenticated = true;
    }
    st.signingIn = false;
    st.welcomed = false;
    st.fatal = false;
    show('retry-line', false);
    begin(res.session, res.user);
  } catch (e) {
    st.signingIn = false;
    fatal(e.message || String(e), e.retry === 'no' ? null : retrySignIn);
    if (e.retry === 'auto' && attempt < signInWaits.length) {
      $('retry-note').textContent = 'Trying again by itself…';
      st.retryTimer = setTimeout(() => discordSignIn(attempt + 1), signInWaits[attempt]);
    }
  }
}

// retrySignIn is the Retry button of a failed sign-in inside Discord.
function retrySignIn() {
  if (st.signingIn) return;
  $('retry-note').textContent = 'Signing in…';
  discordSignIn(0);
}

// signInAgain signs in again inside Discord, the game shown kept, once
// gobot says the session ran out: the page, offline for long, could not
// have it renewed.
function signInAgain() {
  if (st.signingIn) return;
  const ws = st.ws;
  st.ws = null; // its close starts no reconnection
  if (ws) ws.close();
  $('conn').textContent = 'signing in again…';
  discordSignIn(0);
}

function localSignIn() {
  // A reload keeps this tab signed in, on the game it showed.
  try {
    const saved = JSON.parse(sessionStorage.getItem('gobot-session') || 'null');
    if (saved && saved.session && saved.user) {
      begin(saved.session, saved.user);
      return;
    }
  } catch (e) {
    sessionStorage.removeItem('gobot-session');
  }
  show('signin', true);
  performance.mark('gobot-ready'); // the page can be used: tests read it
  const input = $('signin-name');
  input.value = localStorage.getItem('gobot-name') || '';
  $('signin-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const res = await api('api/local', { name: input.value });
      localStorage.setItem('gobot-name', res.user.name);
      sessionStorage.setItem('gobot-session', JSON.stringify({ session: res.session, user: res.user }));
      show('signin', false);
      begin(res.session, res.user);
    } catch (err) {
      say(err.message, true, 'fatal');
      $('fatal').textContent = err.message;
      show('fatal', true);
    }
  });
}

function begin(session, user) {
  st.session = session;
  st.user = user;
  $('me').textContent = 'Signed in as ' + user.name;
  show('fatal', false);
  show('main', true);
  connect();
}

// ---- the connection ----------------------------------------------------

function connect() {
  const url = new URL('ws', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url);
  st.ws = ws;
  $('conn').textContent = st.retry >= unreachableAfter ? unreachable : 'connecting…';
  ws.onopen = () => {
    st.retry = 0;
    $('conn').textContent = '';
    send({ t: 'hello', session: st.session });
    // After a reconnection, the game shown before comes back as it is now.
    if (st.channel) send({ t: 'watch', channel: st.channel });
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    if (st.ws !== ws || st.fatal) return;
    // After a few tries in a row that failed (a few seconds), the page
    // says that gobot cannot be reached, not that it is about to be.
    $('conn').textContent = st.retry >= unreachableAfter ? unreachable : 'reconnecting…';
    // What was sent on this connection will not be answered on the next:
    // nothing is under way any more, and the offers answered come back
    // unless the answer was made.
    st.sent = {};
    st.sentAt = {};
    st.answered = {};
    drawPicker();
    const wait = Math.min(8000, 250 * 2 ** st.retry++);
    setTimeout(connect, wait);
  };
}

// unreachable is what the page says once unreachableAfter tries in a row
// have failed (about 4 s): gobot is down, or the network, or (in an
// Activity set up wrong) the page's requests never reach it.
const unreachable = 'cannot reach gobot, still trying…';
const unreachableAfter = 4;

// send sends m if the page is connected, and says whether it did.
function send(m) {
  if (!st.ws || st.ws.readyState !== WebSocket.OPEN) return false;
  st.ws.send(JSON.stringify(m));
  return true;
}

// unsent says that an action was not sent: the page is reconnecting.
function unsent() {
  say('Not connected: your click was not sent; try again once the page has reconnected.', true);
}

function receive(m) {
  switch (m.t) {
    case 'welcome':
      st.welcomed = true;
      st.local = m.local;
      st.home = m.channel || '';
      st.levels = m.levels || [];
      st.clocks = m.clocks || [];
      if (!st.channel) {
        const saved = st.local && sessionStorage.getItem('gobot-channel');
        if (saved && saved !== m.channel) watch(saved); // after a reload: the game shown before
        else {
          st.channel = m.channel || '';
          // A local page just signed in opens on the console's channel:
          // the first list says whether the user plays a game elsewhere.
          st.findMine = st.local && !saved;
        }
      }
      setupPicker();
      break;
    case 'renew':
      st.session = m.session;
      if (sessionStorage.getItem('gobot-session')) sessionStorage.setItem('gobot-session', JSON.stringify({ session: st.session, user: st.user }));
      break;
    case 'state':
      if (m.game.channel !== st.channel) return;
      setView({ ...m.game, avatars: m.avatars || {} });
      reveal();
      break;
    case 'nogame':
      if (m.channel !== st.channel) return;
      st.view = null;
      st.other = m.other || '';
      show('game', false);
      if (st.said !== st.kept) say('', false);
      else $('notice').hidden = !$('message').textContent; // now that no game shows
      showEmpty();
      break;
    case 'games':
      st.games = m.games;
      st.people = m.people || [];
      st.offers = m.offers || [];
      if (st.findMine) {
        // Sign-in opens the user's own game in play, not the console's
        // channel (empty, or someone else's game), unless they play there.
        st.findMine = false;
        const mine = st.games.filter((g) => st.user && (g.players || []).includes(st.user.id));
        if (mine.length > 0 && !mine.some((g) => g.channel === st.channel)) watch(mine[0].channel);
      }
      drawPicker();
      if (!st.view && !$('empty').hidden) showEmpty();
      break;
    case 'result':
      performance.mark('gobot-result'); // when an answer came (tests wait for it)
      // A refusal is always shown; what a done action did only if the
      // page has said nothing since (a late answer must not hide a newer
      // prompt, and the board shows the move already).
      // A game started or accepted here shows, and what gobot said of it
      // stays with it.
      if (!m.refused && m.channel && m.channel !== st.channel) {
        watch(m.channel, true);
        // A challenge sent here is in the list already (it comes before
        // its result): say whom it waits for now, not once the channel
        // answers that it has no game yet.
        if (!$('empty').hidden && st.offers.some((o) => o.channel === m.channel)) showEmpty();
      }
      // What a done action did is not shown either once the game has
      // moved on from it (the opponent moved before the answer came):
      // setView would take it away, and the line under the board shows
      // their move instead.
      const quiet = !m.refused && st.quiet[m.id];
      delete st.quiet[m.id];
      if (m.refused || (!quiet && m.text && st.said === st.sent[m.id] && !movedOn(m))) {
        say(m.text, m.refused, m.version);
        if (m.channel) { st.kept = st.said; st.keptChallenge = !!m.challenge; }
      }
      delete st.sent[m.id];
      delete st.sentAt[m.id];
      for (const [o, id] of Object.entries(st.answered)) {
        if (id !== m.id) continue;
        delete st.answered[o];
        if (m.refused) drawPicker(); // the offer stands
      }
      if (m.refused && st.pending) { st.pending = null; redraw(); }
      break;
    case 'record':
      performance.mark('gobot-result');
      delete st.sent[m.id]; // answered, as a result would be
      saveFile(m.name, m.type, m.data);
      break;
    case 'error':
      // Inside Discord a new sign-in mends an expired session, unless its
      // session is refused before gobot welcomed it (then Retry, not a
      // loop of sign-ins).
      if (m.fatal && m.signin && discord && st.welcomed) signInAgain();
      else if (m.fatal) fatal(m.text, m.signin && discord ? retrySignIn : null);
      else say(m.text, true);
      break;
  }
}

// movedOn says whether the game shown has moved on from the position a
// done action's answer m speaks of, as setView counts it (in a vote game
// only a move moves it on, and a vote's answer is not one): a version
// past the answer's, or more moves than the action made (one at most;
// the answer's version is read once its handler is done, when the
// opponent may have moved already).
function movedOn(m) {
  const v = st.view;
  if (!v || m.channel || v.over || v.vote) return false;
  return (!!m.version && v.version > m.version) || (m.id in st.sentAt && v.moves > st.sentAt[m.id] + 1);
}

// gameOf names the game a challenge is to ("9×9 game", "game of
// draughts"), challengeOf the challenge ("9×9 challenge").
function gameOf(o) { return o.kind === 'draughts' ? 'game of draughts' : `${o.size}×${o.size} game`; }
function challengeOf(o) { return o.kind === 'draughts' ? 'challenge to draughts' : `${o.size}×${o.size} challenge`; }

// showEmpty says why no game shows. In an Activity opened in a channel
// whose games are all in its threads, the only one opens, or the list is
// pointed to.
function showEmpty() {
  let text = st.other;
  const o = st.local && st.offers.find((o) => o.channel === st.channel);
  if (!text && o && st.answered[o.id]) {
    text = 'Starting the game…';
  } else if (!text && o && st.user && o.from.id === st.user.id) {
    text = `Waiting for ${o.to.name} to accept your ${challengeOf(o)}.`;
  } else if (!text && o) {
    text = `${o.from.name} challenges you to a ${gameOf(o)}: accept or decline it in the list.`;
  }
  if (!text && !st.local) {
    const others = st.games.filter((g) => g.channel !== st.channel);
    if (st.channel === st.home && others.length === 1 && st.games.length === 1) {
      watch(others[0].channel);
      return;
    }
    text = others.length > 0 ? "This channel's games are in its threads: choose one in the list."
      : 'There is no game in play in this channel: start one with /go challenge or /go bot.';
  }
  // The list is beside the board on a wide screen, below it on a phone.
  if (!text) text = 'There is no game here yet: start one under Games.';
  $('empty').textContent = text;
  show('empty', true);
}

// say shows text under the board; at is the game's version it speaks of
// (the view's when not given): once the game moves on from there, it goes.
function say(text, refused, at) {
  st.said++;
  st.saidAt = at || (st.view ? st.view.version : 0);
  const el = $('message');
  el.textContent = text;
  el.classList.toggle('refused', !!refused);
  // With no game on screen (#game hidden), the same words show under the
  // picker: a refused challenge must not go unseen.
  const n = $('notice');
  n.textContent = text;
  n.classList.toggle('refused', !!refused);
  n.hidden = !text || !$('game').hidden;
  drawLast();
}

// drawLast shows the game's last move under the board when nothing else
// is said there: the opponent's move, a pass above all (the next ends
// play), is seen, not only told to screen readers. A player's own move
// is said there already, as its answer.
function drawLast() {
  const text = st.view ? lastText(st.view) : '';
  $('last').textContent = text;
  show('last', !!text && !$('message').textContent);
}

// lastText is the game's last move as Discord's answer to it says it,
// without mentions: "⚫ ann played D4.", "⚫ ann played E5. 1 stone
// captured. Ko at D5: it cannot be retaken at once.", "⚫ ann passed.",
// and in draughts "⚪ white ann played 28x19. White 28x19 captures 1
// piece.".
function lastText(v) {
  const m = v.last;
  if (!m || (m.kind !== 'play' && m.kind !== 'pass')) return '';
  const who = `${m.color === 'black' ? '⚫' : '⚪'}${v.kind === 'draughts' ? ' ' + m.color : ''} ${m.by}`;
  if (m.kind === 'pass') return `${who} passed.`;
  return `${who} played ${m.point}.` + (m.said ? ' ' + m.said : '');
}

function act(kind, point) {
  const v = st.view;
  if (!v) return;
  say('', false);
  performance.mark('gobot-act'); // when the click left (tests measure with it)
  const id = st.nextId++;
  if (!send({ t: 'act', id, channel: v.channel, kind, point: point || '', game: v.id, version: v.version, moves: v.moves, seat: mySeat(v) || 'none' })) {
    // Nothing is under way: no answer will come to clear it.
    st.pending = null;
    unsent();
    redraw();
    return;
  }
  st.sent[id] = st.said;
  st.sentAt[id] = v.moves;
  // An undo request's answer, and a draw offer's, are the question as
  // the opponent reads it ("ann, bob asks to take back 1 move. Do you
  // allow it?", "bob offers a draw. ann, accept with /draughts draw or the
  // button"): the asker's page says it in its own words (undoText, "You
  // offered a draw: …"). Accepting the opponent's offer is answered.
  if (kind === 'undo' || (kind === 'draw' && !(v.draughts && v.draughts.draw_by))) st.quiet[id] = true;
}

// record asks for the record of the game shown, which comes as a file
// to save (receive's 'record').
function record() {
  const v = st.view;
  if (!v) return;
  say('', false);
  const id = st.nextId++;
  if (!send({ t: 'record', id, channel: v.channel, game: v.id })) { unsent(); return; }
  st.sent[id] = st.said;
}

// saveFile hands the browser a file to save, as a link to it clicked.
function saveFile(name, type, data) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// watch shows the game of channel; keep keeps what the page said last
// (of the game it moves to).
function watch(channel, keep) {
  if (channel === st.channel && st.view) {
    // The game shown, chosen again: it stays, and takes clicks at once
    // (put away, it would drop them until the state came back).
    st.reveal = true;
    reveal();
    return;
  }
  if (!keep) st.kept = -1;
  st.reveal = true;
  st.channel = channel;
  st.other = ''; // the channel left's word on where its game is
  sessionStorage.setItem('gobot-channel', channel);
  st.view = null;
  st.pending = null;
  st.sel = null;
  send({ t: 'watch', channel });
  drawPicker();
}

// reveal brings a game just chosen into view as it shows: on a phone the
// list is below the board, and the page would stay scrolled at the list,
// the game's title, clocks and top rows out of sight.
function reveal() {
  if (!st.reveal) return;
  st.reveal = false;
  const el = $('game');
  const top = el.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) el.scrollIntoView({ block: 'start' });
}

// ---- the game ----------------------------------------------------

const board = new Board($('board'), $('points'), {
  onPoint: (name) => press(name),
  onHover: (name) => { st.hover = name; redraw(); },
});
const dboard = new DraughtsBoard($('board'), $('points'), { onSquare: (n) => pressSquare(n) });

function mySeat(v) {
  if (!st.user) return '';
  for (const c of ['black', 'white']) {
    if (v[c].players.some((p) => p.id === st.user.id)) return c;
  }
  // In a vote game everyone here plays the channel's side, by vote.
  if (v.votes) return v.votes.side;
  return '';
}

function myTurn(v) {
  const seat = mySeat(v);
  if (!seat || v.over || v.scoring) return false;
  if (v.vote) return v.to_play === seat;
  // In a team game (rengo) only the player to move plays: the view names them.
  if (v.mover) return v.to_play === seat && v.mover === st.user.id;
  return v.to_play === seat;
}

// resignVotes says whether a resignation (or an abort) here is a vote:
// in a team game, a player not to move votes for their team.
function resignVotes(v) {
  return !!v.mover && !!st.user && v.mover !== st.user.id && v[mySeat(v)].players.length > 1;
}

function press(name) {
  const v = st.view;
  if (!v) return;
  const seat = mySeat(v);
  if (!seat) {
    say('You are watching this game: only its players can act.', true);
    return;
  }
  if (v.scoring && !v.over) {
    act('dead', name);
    return;
  }
  const { col, r } = pointOf(name, v.size);
  const at = v.board[r] && v.board[r][col];
  if (myTurn(v) && at && at !== '.') {
    // As the server words it, at once: no second tap for a point taken.
    say(`${name} is already taken by a ${at === 'X' ? 'black' : 'white'} stone.`, true);
    return;
  }
  if ($('confirm').checked && myTurn(v)) {
    if (!st.pending || st.pending.point !== name) {
      st.pending = { point: name, color: seat, pending: true };
      say(`Tap ${name} again to play it.`, false);
      redraw();
      return;
    }
  }
  st.pending = null;
  act('play', name);
}

// ---- draughts ----------------------------------------------------

// pressSquare is a click on square n of a game of draughts: the first
// click chooses one of your pieces that can move (the legal moves come
// with the view), the second where it goes; where two captures lead
// there by different ways, a third click on a landing square tells
// them apart. A capture may also be clicked landing by landing: a click
// on a square it lands on along the way plays the one capture through
// it, or, when several go on from there, asks where the piece ends. The
// move goes to gobot as its notation, as /draughts play takes it; a
// click on a square no move of the piece goes to is sent as it is, so
// that gobot says why it is not a move, as in Discord.
function pressSquare(n) {
  const v = st.view;
  if (!v || !v.draughts || v.over) return;
  const seat = mySeat(v);
  if (!seat) {
    say('You are watching this game: only its players can act.', true);
    return;
  }
  const d = v.draughts;
  if (!myTurn(v)) {
    const next = v[v.to_play].players[0];
    say(`It is not your turn: ${v.to_play} ${next ? next.name : ''} is to play.`.replace('  ', ' '), true);
    return;
  }
  const sel = st.sel;
  if (sel && sel.ways) {
    // Asked where the piece ends (narrowWays), a click is on an end
    // first; asked which way (chooseWay), on a square along the way.
    const ends = sel.ways.filter((m) => m.to === n);
    const along = sel.ways.filter((m) => m.path.slice(1, -1).includes(n));
    let ways = sel.to === undefined ? (ends.length ? ends : along) : (along.length ? along : ends);
    if (ways.length === 1) { playDraughts(ways[0].text); return; }
    if (ways.length > 1 && ways.length < sel.ways.length) { narrowWays(sel.from, ways); return; }
    if (ways.length) return; // still to be told apart
  }
  const x = d.squares[n - 1];
  const mine = !!x && x.toLowerCase() === seat[0];
  if (mine) {
    if (sel && sel.from === n) {
      // A capture may end where it started (a round trip, common with
      // kings): the piece is then its own target.
      const back = d.legal.filter((m) => m.from === n && m.to === n);
      if (back.length === 1) { playDraughts(back[0].text); return; }
      if (back.length > 1) { chooseWay(n, n, back); return; }
      st.sel = null; say('', false); redraw(); return;
    }
    if (!d.legal.some((m) => m.from === n)) {
      st.sel = null;
      // A piece that can capture, but fewer pieces than another, is told
      // so in the rules' words, as /draughts play refuses its capture.
      const lesser = (d.lesser || {})[n];
      say(lesser || (d.capture ? `The piece on ${n} cannot capture, and a capture is compulsory: ${moveList(d.legal)}.` : `The piece on ${n} cannot move: choose another.`), true);
      redraw();
      return;
    }
    st.sel = { from: n };
    say('', false);
    redraw();
    return;
  }
  if (!sel) {
    say(x ? `That is your opponent's piece: click one of yours, then where it goes.` : 'Click one of your pieces first, then the square it goes to.', true);
    return;
  }
  const ways = d.legal.filter((m) => m.from === sel.from && m.to === n);
  if (ways.length === 1) { playDraughts(ways[0].text); return; }
  if (ways.length > 1) { chooseWay(sel.from, n, ways); return; }
  // A square the capture lands on along the way.
  const through = d.legal.filter((m) => m.from === sel.from && m.path.slice(1, -1).includes(n));
  if (through.length === 1) { playDraughts(through[0].text); return; }
  if (through.length > 1) { narrowWays(sel.from, through, n); return; }
  playDraughts(`${sel.from}${d.capture ? 'x' : '-'}${n}`);
}

// narrowWays asks which of ways, the captures from from that are left
// (those through the square via, when one was just clicked), is meant:
// by a landing square where they all end on one square, else by where
// the piece ends, those squares ringed as a move's targets.
function narrowWays(from, ways, via) {
  const ends = ways.map((m) => m.to).filter((q, i, a) => a.indexOf(q) === i);
  if (ends.length === 1) { chooseWay(from, ends[0], ways); return; }
  st.sel = { from, ways };
  const list = ends.length > 1 ? ends.slice(0, -1).join(', ') + ' or ' + ends[ends.length - 1] : ends.join('');
  say(`${ways.length} captures from ${from} ${via ? `land on ${via} and ` : ''}go on: click the square the piece ends on (${list}).`, false);
  redraw();
}

// chooseWay asks which way a capture from from to to goes: the landing
// squares that tell the ways apart are ringed.
function chooseWay(from, to, ways) {
  st.sel = { from, to, ways };
  say(`${ways.length} captures go from ${from} to ${to}: click the square to land on first (${wayChoices(ways).join(' or ')}).`, false);
  redraw();
}

// wayChoices are the landing squares of ways that not all of them share.
function wayChoices(ways) {
  const count = {};
  for (const m of ways) for (const q of new Set(m.path.slice(1, -1))) count[q] = (count[q] || 0) + 1;
  return ways.map((m) => m.path.slice(1, -1).find((q) => count[q] < ways.length)).filter((q, i, a) => q && a.indexOf(q) === i);
}

// moveList lists moves as gobot's refusals do: four at most.
function moveList(moves) {
  const t = moves.map((m) => m.text);
  if (t.length > 4) return t.slice(0, 4).join(', ') + ' or …';
  return t.length > 1 ? t.slice(0, -1).join(', ') + ' or ' + t[t.length - 1] : t.join('');
}

function playDraughts(text) {
  st.sel = null;
  act('play', text);
  redraw();
}

// drawDraughts draws a game of draughts and its controls.
function drawDraughts(v, seat, turn) {
  board.n = 0; // a game of Go shown next lays its points out afresh
  const d = v.draughts;
  const sel = st.sel;
  let targets = [], choices = [];
  if (sel && sel.ways && sel.to === undefined) {
    targets = sel.ways.map((m) => m.to); // where the captures left end
  } else if (sel && sel.ways) {
    choices = wayChoices(sel.ways);
  } else if (sel) {
    targets = d.legal.filter((m) => m.from === sel.from).map((m) => m.to);
  }
  dboard.draw(v, { flip: seat === 'black', selected: sel ? sel.from : 0, targets, choices, active: turn });
  const playing = !!seat && !v.over;
  const draw = $('draw');
  draw.hidden = !!v.vote;
  const mine = d.draw_by === seat, theirs = !!d.draw_by && !mine;
  draw.textContent = theirs ? 'Accept the draw' : mine ? 'Draw offered' : 'Offer a draw';
  draw.disabled = mine;
  const ask = $('draw-text');
  ask.hidden = !d.draw_by || v.over;
  const by = d.draw_by === 'white' ? 'White' : 'Black', other = d.draw_by === 'white' ? 'Black' : 'White';
  ask.textContent = mine ? `You offered a draw: it stands until ${other} moves.`
    : !playing ? `${by} offers a draw: it stands until ${other} moves.`
      : `${by} offers a draw: accept it, or play on (the offer lapses with your move).`;
}

function setView(v) {
  const prev = st.view;
  if (!prev || prev.id !== v.id || prev.moves !== v.moves || prev.version !== v.version) st.pending = st.sel = null;
  // A refusal belongs to the phase it was made in: once play ends, the
  // scoring phase starts or ends, or another game shows, it goes; so does
  // what an earlier action did ("ann played E5" once the game is aborted),
  // unless an action of this page's is under way (which may be what
  // changed the phase: its answer is still to come).
  const phase = (g) => g.id + (g.over ? ':over' : '') + (g.scoring ? ':scoring' : '');
  const acting = Object.keys(st.sent).length > 0;
  if (prev && phase(prev) !== phase(v) && ($('message').classList.contains('refused') || !acting)) say('', false);
  // Nor does a refusal outlive the position it answered ("It is not your
  // turn" once the opponent has moved), and nothing said of another game
  // stays under this one.
  if (!prev || prev.id !== v.id) {
    // "Challenge sent. …" is said while the challenge waits: not under
    // the game it starts.
    if ($('message').textContent && (st.said !== st.kept || st.keptChallenge)) say('', false);
  } else if ((prev.moves !== v.moves || prev.version !== v.version) && $('message').classList.contains('refused')) {
    say('', false);
  } else if ($('message').textContent && v.version > st.saidAt && !v.over && (!v.vote || prev.moves !== v.moves)) {
    // What was said of a move ("ann played E5. 1 stone captured.") goes
    // once the game moves on from the position it spoke of; the live
    // region keeps the announcements. (In a vote game, each vote is a
    // version: there only a move moves on.)
    say('', false);
  }
  st.view = v;
  st.receivedAt = performance.now();
  announce(prev, v);
  show('empty', false);
  show('game', true);
  show('notice', false);
  redraw();
  drawPicker();
  if (!prev || prev.moves !== v.moves) performance.mark(`gobot-move-${v.moves}`); // when the move was drawn
}

// announce tells screen readers what changed: each move, the end of play.
function announce(prev, v) {
  const dead = v.scoring ? v.scoring.dead.join(',') : '';
  const key = [v.id, v.moves, v.over ? 'over' : '', v.scoring ? 'scoring' : '', v.undo ? 'undo:' + v.undo.by : '', dead].join(':');
  if (key === st.lastAnnounced) return;
  st.lastAnnounced = key;
  const same = prev && prev.id === v.id;
  const parts = [];
  // What changed without a move: an undo asked and answered, the marking.
  if (same && prev.undo && !v.undo) {
    const back = prev.moves - v.moves;
    const asker = prev.undo.by === mySeat(v);
    // A move made instead of an answer lets the request lapse; without
    // one, only the asker's page knows whether it was withdrawn there.
    let text;
    if (back > 0) text = `The undo was allowed: ${back} ${back === 1 ? 'move' : 'moves'} taken back.`;
    else if (v.moves > prev.moves) text = `The undo request lapsed with ${v.recent && v.recent.length ? sideName(v.recent[v.recent.length - 1].color) : 'the next'}'s move.`;
    else if (asker) text = st.withdrew === v.id ? 'You withdrew your undo request.' : 'Your undo request was refused.';
    else text = 'The undo request was refused or withdrawn.';
    parts.push(text);
    if (asker) say(text, false); // the asker learns the answer
  } else if (same && !prev.undo && v.undo) {
    parts.push(undoText(v.undo, undoReader(v)));
  }
  if (!v.undo) st.withdrew = '';
  // The marking changed, or play resumed, by the opponent's click (a
  // click of this page's is answered by its result): said on the page
  // too, not only to screen readers, or an acceptance would turn to "not
  // yet", and the count vanish, without a word.
  const theirs = Object.keys(st.sent).length === 0;
  if (same && prev.scoring && v.scoring && !v.over && prev.scoring.dead.join(',') !== dead) {
    const text = `The marking changed: ${v.scoring.dead.length} ${v.scoring.dead.length === 1 ? 'stone' : 'stones'} marked dead. ${v.scoring.count}`;
    parts.push(text);
    if (theirs) say(text, false);
  } else if (same && prev.scoring && !v.scoring && !v.over) {
    parts.push('Play resumed.');
    if (theirs) say('Play resumed: the count is off, and the game goes on.', false);
  }
  for (const m of v.recent || []) {
    if (same && m.n <= prev.moves) continue;
    if (!same && m.n < v.moves) continue;
    const who = m.color.charAt(0).toUpperCase() + m.color.slice(1);
    // What the move's answer in Discord says after it (Go's captures and
    // ko, draughts' captures and crownings), in its words.
    if (m.kind === 'play') parts.push(`${who} (${m.by}) played ${m.point}.` + (m.said ? ' ' + m.said : ''));
    else if (m.kind === 'pass') parts.push(`${who} (${m.by}) passed.`);
  }
  if (v.over) parts.push(v.status);
  else if (v.scoring && !(same && prev.scoring)) parts.push(v.status);
  if (parts.length === 0) return;
  // Each announcement is added to the live region (a screen reader reads
  // what is added); the last few stay.
  const live = $('live');
  const p = document.createElement('p');
  p.textContent = parts.join(' ');
  live.appendChild(p);
  while (live.children.length > 4) live.firstChild.remove();
}

function redraw() {
  const v = st.view;
  if (!v) return;
  const seat = mySeat(v);
  const turn = myTurn(v);
  const draughts = v.kind === 'draughts';
  // White moves first in draughts: its box comes first there.
  $('side-white').parentElement.classList.toggle('white-first', draughts);
  if (draughts) {
    drawDraughts(v, seat, turn);
  } else {
    dboard.built = false; // a game of draughts shown next lays its squares out afresh
    let ghost = st.pending;
    if (!ghost && turn && st.hover) {
      const { col, r } = pointOf(st.hover, v.size);
      if (v.board[r] && v.board[r][col] === '.') ghost = { point: st.hover, color: seat, pending: false };
    }
    board.draw(v, { ghost, active: turn || (!!seat && !!v.scoring && !v.over) });
  }
  $('title').textContent = v.title;
  $('rules').textContent = v.rules || '';
  $('status').textContent = v.status;
  drawLast();
  for (const c of ['black', 'white']) {
    const el = $('side-' + c);
    const sv = v[c];
    const names = sv.players.map((p) => p.name + (p.id && st.user && p.id === st.user.id ? ' (you)' : '')).join(', ');
    el.querySelector('.names').textContent = names;
    avatar(el.querySelector('.avatar'), sv.players[0], sv.players[0] && (v.avatars || {})[sv.players[0].id]);
    const caps = sv.pieces || `${sv.captures} captured`;
    el.querySelector('.caps').textContent = caps;
    el.classList.toggle('turn', v.to_play === c);
    el.setAttribute('aria-label', `${c}: ${names}, ${caps}`);
  }
  tick();
  const playing = !!seat && !v.over;
  show('controls', playing && !v.scoring);
  $('pass').disabled = !turn;
  $('pass').textContent = v.vote ? 'Vote pass' : 'Pass';
  // Draughts has no pass and no undo, but draw offers; Go no draw offers.
  $('pass').hidden = draughts;
  $('confirm-label').hidden = draughts;
  if (!draughts) { $('draw').hidden = true; $('draw-text').hidden = true; }
  // Undo is refused in rengo, rated against a bot and in a vote game, and
  // there is nothing to take back before one's first move.
  $('undo').hidden = draughts || !!v.no_undo || !!v.vote || !seat || !v[seat].moves;
  $('resign').hidden = !!v.vote; // nobody resigns for a channel
  // A finished game of two offers its players Rematch, as Discord's final
  // board does: the other controls are for a game in play.
  const again = !!seat && v.over && !!v.rematch;
  show('rematch', again);
  if (again) {
    show('controls', true);
    for (const id of ['pass', 'undo', 'draw', 'resign', 'confirm-label']) show(id, false);
  }
  show('resign-ask', false);
  // The record, for everyone watching, on this computer's page: a page
  // inside Discord may not save files (/go sgf attaches it there).
  show('record-line', st.local);
  $('record').textContent = `Save the record (${draughts ? 'PDN' : 'SGF'})`;
  const rv = v.resign_vote;
  show('resign-vote', !!rv && !v.over);
  if (rv) $('resign-vote').textContent = teamVoteText(rv, seat, 'resign');
  // A team's vote to abort, shown as Discord posts it; the team's players
  // who have not voted answer it with Abort (asked to confirm).
  const av = v.abort_vote;
  show('abort-vote', !!av && !v.over);
  if (av) {
    $('abort-vote-text').textContent = teamVoteText(av, seat, 'abort');
    $('abort').hidden = !playing || av.side !== seat || av.voters.includes(st.user.id);
  }
  const u = v.undo;
  show('undo-ask', !!u && playing);
  if (u) {
    const mine = u.by === seat;
    $('undo-text').textContent = undoText(u, undoReader(v));
    $('undo-yes').hidden = mine;
    $('undo-no').textContent = mine ? 'Withdraw' : 'Refuse';
  }
  const sc = v.scoring;
  show('scoring', !!sc);
  if (sc) {
    $('count').textContent = sc.count;
    $('check').textContent = !v.over && sc.check ? sc.check : '';
    show('check', !v.over && !!sc.check);
    show('scoring-help', playing);
    const yes = (c) => (sc.accepted[c] ? 'accepted' : 'not yet');
    $('accepted').textContent = v.over ? v.status : `Black: ${yes('black')} · White: ${yes('white')}`;
    $('accept').hidden = $('resume').hidden = !playing;
    $('accept').disabled = !!sc.accepted[seat];
  }
}

// teamVoteText is a team's open vote on resigning or aborting (what) as
// the page says it to the voters, their teammates and everyone else, in
// the words of Discord's "… votes that ⚫ black abort the game: 1 of the 2
// votes needed".
function teamVoteText(rv, seat, what) {
  const [verb, done, button] = what === 'abort' ? ['abort the game', 'It is aborted', 'Abort'] : ['resign', 'It resigns', 'Resign'];
  const tally = `${rv.voters.length} of the ${rv.need} votes needed`;
  if (st.user && rv.voters.includes(st.user.id)) return `You voted that your team ${verb}: ${tally}. ${done} if enough teammates agree before the next move.`;
  const who = rv.names.join(', ');
  const votes = rv.voters.length === 1 ? 'votes' : 'vote';
  if (rv.side === seat) return `${who} ${votes} that your team ${verb}: ${tally}. Press ${button} to agree, before the next move.`;
  return `${who} ${votes} that ${sideName(rv.side)} ${verb}: ${tally}.`;
}

// undoText is an undo request as the page says it to reader ('asker',
// 'opponent' or 'watching'), counting the moves it takes back as
// Discord's question does: the asker's last move and, when the opponent
// has replied, that reply too.
function undoText(u, reader) {
  const n = u.moves || 1;
  if (reader === 'asker') return n === 1 ? 'You asked to take back your last move.' : `You asked to take back ${n} moves (yours and your opponent's reply).`;
  const who = sideName(u.by);
  const reply = reader === 'opponent' ? 'your reply' : `${sideName(u.by === 'black' ? 'white' : 'black')}'s reply`;
  return n === 1 ? `${who} asks to take back their last move.` : `${who} asks to take back ${n} moves (theirs and ${reply}).`;
}

// undoReader is who this page's user is to the game's undo request.
function undoReader(v) {
  const seat = mySeat(v);
  if (!seat || !v.undo) return 'watching';
  return v.undo.by === seat ? 'asker' : 'opponent';
}

function sideName(c) { return c === 'black' ? 'Black' : 'White'; }

// avatar shows a player's Discord picture (inside Discord, once they have
// opened the board: see README; the state says whose gobot knows) or
// else their initial.
function avatar(el, p, url) {
  const key = (p ? p.id || p.name : '') + ' ' + (url || '');
  if (el.dataset.who === key) return;
  el.dataset.who = key;
  el.textContent = (p ? p.name : '?').charAt(0).toUpperCase();
  if (!url || st.local) return;
  const img = new Image();
  img.alt = '';
  img.onload = () => { if (el.dataset.who === key) el.replaceChildren(img); };
  img.src = url;
}

function pointOf(name, n) {
  const cols = 'ABCDEFGHJKLMNOPQRST';
  return { col: cols.indexOf(name[0]), r: n - parseInt(name.slice(1), 10) };
}

// ---- clocks ----------------------------------------------------

// fmt writes a duration as gobot's messages do (the server's
// clock.Format): in at most its two largest units, rounded to the smaller
// of them, "3 days", "1 day 4 h", "10 min", "2 min 30 s", "45 s"; "0 s"
// below a second.
const UNITS = [[86400000, 'day'], [3600000, 'h'], [60000, 'min'], [1000, 's']];
function fmt(ms) {
  if (!(ms >= 1000)) return '0 s';
  let d = ms;
  const i = UNITS.findIndex(([u]) => d >= u);
  const r = UNITS[Math.min(i + 1, UNITS.length - 1)][0];
  d = Math.round(d / r) * r;
  const parts = [];
  for (const [u, name] of UNITS) {
    const n = Math.floor(d / u);
    if (n === 0) {
      if (parts.length > 0) break;
      continue;
    }
    d -= n * u;
    parts.push(`${n} ${name === 'day' && n !== 1 ? 'days' : name}`);
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

// relative writes a time ms ahead as Discord shows a relative timestamp
// (<t:…:R>, and the server's discordTime): rounded to the nearest unit,
// "in 5 minutes", "in 2 hours", "in 40 seconds".
function relative(ms) {
  const s = 1000, m = 60 * s, h = 60 * m, day = 24 * h;
  const round = (u) => Math.max(Math.round(ms / u), 1);
  let n, unit;
  if (ms < 45 * s) [n, unit] = [round(s), 'second'];
  else if (ms < 45 * m) [n, unit] = [round(m), 'minute'];
  else if (ms < 22 * h) [n, unit] = [round(h), 'hour'];
  else [n, unit] = [round(day), 'day'];
  return `in ${n} ${unit}${n === 1 ? '' : 's'}`;
}

function tick() {
  const v = st.view;
  if (!v) return;
  const vote = v.votes && v.votes.open && !v.over ? v.votes : null;
  show('votes', !!vote);
  if (vote) {
    const left = vote.deadline_ms - v.server_ms - (performance.now() - st.receivedAt);
    $('votes').textContent = vote.text + (vote.deadline_ms ? `. The move is played in ${fmt(Math.max(left, 1000))}.` : '. The game is adjourned: the next vote opens a new period.');
  }
  // The scoring phase's deadline, counted down as the vote's is.
  const sc = v.scoring && !v.over && v.scoring.deadline ? v.scoring : null;
  show('deadline', !!sc);
  if (sc) {
    const left = sc.deadline_ms - v.server_ms - (performance.now() - st.receivedAt);
    const text = sc.deadline.replace('{in}', relative(Math.max(left, 1000)));
    if ($('deadline').textContent !== text) $('deadline').textContent = text;
  }
  for (const c of ['black', 'white']) {
    const el = $('side-' + c).querySelector('.clock');
    const k = v[c].clock;
    if (!k) { el.textContent = ''; el.classList.remove('running'); continue; }
    el.classList.toggle('running', !!k.running && !v.over && !v.scoring);
    el.textContent = k.running && !v.over && !v.scoring ? clockText(k, performance.now() - st.receivedAt) : k.text;
  }
}

// clockText is a running clock elapsed ms after its view came: its time
// left, and once that is spent, the byo-yomi periods or the Canadian
// period that follow (k.then), counted down here as the server counts them.
function clockText(k, elapsed) {
  const rem = k.left_ms - elapsed;
  // A clock with nothing after its time (a Canadian period, simple time)
  // reads "0 s" once under a second, as the server shows a spent clock:
  // not "0 s for 2 moves" until the loss on time arrives.
  if (!k.then) return rem >= 1000 ? (k.prefix || '') + fmt(rem) + (k.suffix || '') : fmt(0);
  if (rem > 0) return (k.prefix || '') + fmt(rem) + (k.suffix || '');
  const over = -rem, used = Math.floor(over / k.period_ms);
  if (used >= (k.periods || 0)) return fmt(0); // the last period spent: the time is up
  const left = k.period_ms - (over % k.period_ms);
  if (k.then !== 'byoyomi') return `${fmt(left)} for ${k.label}`;
  // As the server writes it (clock.ByoYomiAfter): the periods after this one.
  const after = k.periods - used - 1;
  return `byo-yomi ${fmt(left)}` + (after > 0 ? ` + ${after}×${k.label}` : ' (last period)');
}
setInterval(tick, 250);

// ---- the picker ----------------------------------------------------

function setupPicker() {
  show('newbot', st.local);
  show('newchallenge', st.local);
  const sel = $('newbot-level');
  sel.replaceChildren(...st.levels.map((l) => new Option(l, l)));
  if (st.levels.includes('easy')) sel.value = 'easy';
  // The clocks gobot offers, the default first, as /go's clock option
  // names them.
  for (const c of document.querySelectorAll('select.clocks')) c.replaceChildren(...st.clocks.map((k) => new Option(k.label, k.value)));
  drawPicker();
}

function drawPicker() {
  // Each list is rebuilt only when what it shows changed: a list rebuilt
  // under the pointer (the server resends it when someone comes or goes)
  // would lose a click made on it (and close the suggestions of people
  // open under the name being typed).
  const list = $('games');
  const labels = gameLabels(st.games);
  fillList(list, st.games.map((g, i) => [g.channel, labels[i]]), () => st.games.map((g, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = labels[i];
    b.dataset.channel = g.channel;
    b.addEventListener('click', () => watch(g.channel));
    li.appendChild(b);
    return li;
  }));
  for (const b of list.querySelectorAll('button')) b.setAttribute('aria-current', String(b.dataset.channel === st.channel));
  const shown = st.offers.filter((o) => !st.answered[o.id] && // answered here: on its way out of the list
    st.user && (o.to.id === st.user.id || o.from.id === st.user.id));
  fillList($('offers'), shown.map((o) => [o.id, o.to.id === st.user.id, gameOf(o), challengeOf(o), o.from.name, o.to.name, o.text]), () => shown.map((o) => {
    const li = document.createElement('li');
    if (o.to.id === st.user.id) {
      // Its terms, as Discord's challenge says them, before it is accepted.
      li.append(o.text ? `${o.text} ` : `${o.from.name} challenges you to a ${gameOf(o)}. `);
      for (const [label, yes] of [['Accept', true], ['Decline', false]]) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = label;
        b.addEventListener('click', () => answer(o, yes));
        li.append(b, ' ');
      }
    } else {
      li.append(`Waiting for ${o.to.name} to accept your ${challengeOf(o)}. `);
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Withdraw';
      b.addEventListener('click', () => answer(o, false));
      li.append(b);
    }
    return li;
  }));
  const names = st.people.filter((p) => !st.user || p.id !== st.user.id).map((p) => p.name);
  fillList($('people'), names, () => names.map((n) => new Option(n)));
  // The picker is shown when there is a choice to make.
  show('picker', st.local || st.games.length > 1 || st.games.some((g) => g.channel !== st.channel));
}

// fillList replaces el's children with build()'s when key, what they show,
// differs from what el shows now.
function fillList(el, key, build) {
  const k = JSON.stringify(key);
  if (el.dataset.shows === k) return;
  el.dataset.shows = k;
  el.replaceChildren(...build());
}

// gameLabel is a game in the list: its title, its kind or board size,
// and in an Activity where it is, so that two games of the same players
// (one in the channel, one in a thread) are told apart.
function gameLabel(g) {
  const parts = [g.title, g.kind === 'draughts' ? 'draughts' : `${g.size}×${g.size}`];
  if (!st.local) {
    if (g.channel === st.home) parts.push(g.thread ? 'in this thread' : 'in this channel');
    else if (g.thread) parts.push('in a thread');
  }
  return parts.join(' · ');
}

// gameLabels are the labels of the games of the list: gameLabel, and for
// games it would name alike (two games of the same players and board in
// threads), when each started, in the reader's time: to the minute, the
// date too when not today, to the second if the minute is the same.
function gameLabels(games) {
  const labels = games.map(gameLabel);
  const alike = (ls, i) => ls.some((l, j) => j !== i && l === ls[i]);
  const today = new Date().toDateString();
  const started = (ms, seconds) => {
    const d = new Date(ms);
    const opts = { hour: 'numeric', minute: '2-digit' };
    if (seconds) opts.second = '2-digit';
    if (d.toDateString() !== today) Object.assign(opts, { month: 'short', day: 'numeric' });
    return 'started ' + d.toLocaleString(undefined, opts);
  };
  for (const seconds of [false, true]) {
    const next = labels.map((l, i) => (alike(labels, i) && games[i].started_ms ? `${gameLabel(games[i])} · ${started(games[i].started_ms, seconds)}` : l));
    labels.splice(0, labels.length, ...next);
    if (!labels.some((l, i) => alike(labels, i))) break;
  }
  return labels;
}

// answer accepts or declines (or withdraws) a local challenge: the offer
// leaves the list at once (it comes back if the answer is refused), and
// an accepted game shows.
function answer(o, yes) {
  const id = st.nextId++;
  if (!send({ t: 'answer', id, channel: o.channel, challenge: o.id, accept: yes })) {
    unsent();
    return;
  }
  st.answered[o.id] = id;
  st.sent[id] = st.said;
  if (yes) watch(o.channel);
  else drawPicker();
}

// start asks for a new local game; what gobot answers is shown.
function start(m) {
  const id = st.nextId++;
  if (!send({ t: 'start', id, ...m })) {
    unsent();
    return;
  }
  st.sent[id] = st.said;
}

// options are a new game's colour, handicap and clock, as the form
// prefix chose them.
function options(prefix) {
  return {
    size: parseInt($(prefix + '-size').value, 10),
    color: $(prefix + '-color').value,
    handicap: parseInt($(prefix + '-handicap').value, 10),
    clock: $(prefix + '-clock').value,
  };
}

$('newbot').addEventListener('submit', (e) => {
  e.preventDefault();
  start({ level: $('newbot-level').value, ...options('newbot') });
});
$('newchallenge').addEventListener('submit', (e) => {
  e.preventDefault();
  start({ opponent: $('challenge-name').value.trim(), ...options('challenge') });
});

// ---- buttons ----------------------------------------------------

$('pass').addEventListener('click', () => act('pass'));
$('undo').addEventListener('click', () => act('undo'));
// ask asks to confirm a resignation or an abort (what): the question
// under the controls, its answer sent as that action.
function ask(what, text, yes) {
  st.asking = what;
  $('resign-text').textContent = text;
  $('resign-yes').textContent = yes;
  show('resign-ask', true);
  $('resign-no').focus();
}
$('resign').addEventListener('click', () => {
  // Not one's move in a team game, Resign casts a vote: the question says so.
  const vote = st.view && resignVotes(st.view);
  if (vote) ask('resign', 'Vote that your team resign? It resigns once a majority of the team agrees, before the next move.', 'Yes, vote to resign');
  else ask('resign', 'Do you really want to resign this game?', 'Yes, resign');
});
$('abort').addEventListener('click', () => {
  // As in Discord, the player to move aborts alone; a teammate votes.
  if (st.view && resignVotes(st.view)) ask('abort', 'Vote that your team abort the game? It is aborted once a majority of the team agrees, before the next move; an aborted game is recorded and never rated.', 'Yes, vote to abort');
  else ask('abort', 'Abort the game for your team? As the player to move, you abort it at once: it is recorded as aborted and never rated.', 'Yes, abort');
});
$('resign-no').addEventListener('click', () => show('resign-ask', false));
$('resign-yes').addEventListener('click', () => { show('resign-ask', false); act(st.asking); });
$('undo-yes').addEventListener('click', () => act('undo-yes'));
$('undo-no').addEventListener('click', () => {
  // The asker's Withdraw: the request's end is then said as withdrawn.
  if (st.view && undoReader(st.view) === 'asker') st.withdrew = st.view.id;
  act('undo-no');
});
$('accept').addEventListener('click', () => act('accept'));
$('rematch').addEventListener('click', () => act('rematch'));
$('record').addEventListener('click', record);
$('draw').addEventListener('click', () => act('draw'));
$('resume').addEventListener('click', () => act('resume'));
$('retry').addEventListener('click', () => { if (st.retryWith) st.retryWith(); });
$('confirm').checked = matchMedia('(pointer: coarse)').matches;
$('confirm').addEventListener('change', () => { st.pending = null; redraw(); });

main();
