// board.js draws a Go board as SVG in the look of gobot's pictures (wood,
// shaded stones, coordinates, the last move ringed, the ko point boxed,
// dead stones crossed, territory as small squares), and lays a grid of
// buttons over it: one per point, each labelled for screen readers, moved
// between with the arrow keys and pressed with Enter, so that a click, a
// tap and a key press all land on the point drawn under them.

const COLS = 'ABCDEFGHJKLMNOPQRST';
const SVG = 'http://www.w3.org/2000/svg';

// pointName is the GTP name of the point at column col (0 = A) and row r
// counted from the top of an n×n board.
export function pointName(col, r, n) {
  return COLS[col] + String(n - r);
}

// parsePoint is the column and row from the top of a point's name.
export function parsePoint(name, n) {
  const col = COLS.indexOf(name[0]);
  const row = n - parseInt(name.slice(1), 10);
  return { col, r: row };
}

function stars(n) {
  const s = n === 9 ? [2, 6] : n === 13 ? [3, 9] : [3, 9, 15];
  const pts = [];
  for (const x of s) for (const y of s) pts.push([x, y]);
  if (n === 9 || n === 13 || n === 19) pts.push([(n - 1) / 2, (n - 1) / 2]);
  if (n === 19) pts.push([3, 9], [15, 9], [9, 3], [9, 15]);
  return pts;
}

const STONE = { X: 'black', O: 'white' };

// M is the margin of wood beyond the coordinates, in lines: the labels
// sit outside the stones of the edge, as in gobot's pictures.
const M = 0.25;

// The coordinates' size, in lines: FS, grown on a small board so as to be
// at least COORD_PX pixels (what a player types for /go play move: must
// be read, as draughts' square numbers are), up to FS_MAX, the most the
// margin holds beside the edge's stones.
const FS = 0.34, FS_MAX = 0.62, COORD_PX = 11;

export class Board {
  // svg is the drawing, grid the element the buttons go in; onPoint(name)
  // is called for a press, onHover(name|null) when the pointer moves.
  constructor(svg, grid, { onPoint, onHover }) {
    this.svg = svg;
    this.grid = grid;
    this.onPoint = onPoint;
    this.onHover = onHover;
    // The kind of the last pointer pressed anywhere on the page.
    addEventListener('pointerdown', (e) => { this.pointer = e.pointerType; }, true);
    this.n = 0;
    this.buttons = [];
    this.focus = 0;
    this.fs = FS;
    // The coordinates follow the board's size on screen.
    new ResizeObserver(() => this.fit()).observe(svg);
  }

  // fit sizes the coordinates for the board's size on screen (see FS).
  fit() {
    const w = this.svg.getBoundingClientRect().width;
    if (!this.n || !w) return;
    const fs = Math.min(FS_MAX, Math.max(FS, COORD_PX * (this.n + 1 + 2 * M) / w));
    if (Math.abs(fs - this.fs) < 0.005) return;
    this.fs = fs;
    for (const t of this.svg.querySelectorAll('text.coord')) t.setAttribute('font-size', fs.toFixed(3));
  }

  // layout builds the buttons for an n×n board.
  layout(n) {
    if (n === this.n) return;
    this.n = n;
    this.grid.replaceChildren();
    this.buttons = [];
    // The drawing runs from -M to n+1+M (see VIEW); point i sits at 1+i,
    // and its button covers i+0.5 to i+1.5.
    const span = n + 1 + 2 * M;
    const s = this.grid.style;
    s.left = s.top = (100 * (0.5 + M) / span).toFixed(4) + '%';
    s.width = s.height = (100 * n / span).toFixed(4) + '%';
    s.gridTemplateColumns = `repeat(${n}, 1fr)`;
    s.gridTemplateRows = `repeat(${n}, 1fr)`;
    for (let r = 0; r < n; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'row';
      for (let c = 0; c < n; c++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('role', 'gridcell');
        const name = pointName(c, r, n);
        b.dataset.point = name;
        b.tabIndex = -1;
        b.addEventListener('click', () => { this.focus = r * n + c; this.onPoint(name); });
        // A finger hovers nowhere: after a touch no ghost stone is drawn,
        // neither as it lands, nor by the focus its tap gives the point,
        // nor where the browser keeps the pointer after the tap (the
        // board appearing under a tap on Accept).
        b.addEventListener('pointerenter', (e) => { if (e.pointerType !== 'touch' && this.pointer !== 'touch') this.onHover(name); });
        b.addEventListener('focus', () => { this.focus = r * n + c; if (this.pointer !== 'touch') this.onHover(name); });
        b.addEventListener('keydown', (e) => { this.pointer = ''; this.key(e); });
        this.buttons.push(b);
        row.appendChild(b);
      }
      this.grid.appendChild(row);
    }
    this.grid.addEventListener('pointerleave', () => this.onHover(null));
    this.focus = Math.floor(n / 2) * n + Math.floor(n / 2);
    this.buttons[this.focus].tabIndex = 0;
    this.svg.setAttribute('viewBox', `${-M} ${-M} ${n + 1 + 2 * M} ${n + 1 + 2 * M}`);
  }

  key(e) {
    const n = this.n;
    let r = Math.floor(this.focus / n), c = this.focus % n;
    switch (e.key) {
      case 'ArrowUp': r = Math.max(0, r - 1); break;
      case 'ArrowDown': r = Math.min(n - 1, r + 1); break;
      case 'ArrowLeft': c = Math.max(0, c - 1); break;
      case 'ArrowRight': c = Math.min(n - 1, c + 1); break;
      case 'Home': c = 0; break;
      case 'End': c = n - 1; break;
      default: return;
    }
    e.preventDefault();
    this.moveFocus(r * n + c);
  }

  moveFocus(i) {
    this.buttons[this.focus].tabIndex = -1;
    this.focus = i;
    this.buttons[i].tabIndex = 0;
    this.buttons[i].focus();
  }

  // draw shows a game view; extra says what else to mark: ghost (a
  // stone to preview: {point, color, pending}), active (whether presses
  // do anything now).
  draw(v, extra) {
    const n = v.size;
    this.layout(n);
    const dead = new Set(v.scoring ? v.scoring.dead : []);
    const last = v.last && v.last.kind === 'play' ? v.last.point : '';
    const p = [];
    p.push(`<defs>
<radialGradient id="gb" cx=".35" cy=".3" r=".75"><stop offset="0" stop-color="#707074"/><stop offset=".55" stop-color="#28282c"/><stop offset="1" stop-color="#0a0a0c"/></radialGradient>
<radialGradient id="gw" cx=".35" cy=".3" r=".75"><stop offset="0" stop-color="#fff"/><stop offset=".55" stop-color="#f2f0ea"/><stop offset="1" stop-color="#c4c0b6"/></radialGradient>
<linearGradient id="wood" x1="0" x2="1"><stop offset="0" stop-color="#e6bd6d"/><stop offset="1" stop-color="#d9ac5b"/></linearGradient>
</defs>`);
    p.push(`<rect x="${-M}" y="${-M}" width="${n + 1 + 2 * M}" height="${n + 1 + 2 * M}" fill="url(#wood)"/>`);
    // The grain: a few long, faint late-wood lines.
    for (let i = 0; i < 14; i++) {
      const y = ((i * 0.61803) % 1) * (n + 1 + 2 * M) - M;
      const w = 0.015 + ((i * 7) % 5) * 0.008;
      p.push(`<path d="M${-M} ${y.toFixed(3)} C ${(n + 1) / 3} ${(y + 0.25).toFixed(3)}, ${(2 * (n + 1)) / 3} ${(y - 0.2).toFixed(3)}, ${n + 1 + M} ${(y + 0.1).toFixed(3)}" stroke="#c49044" stroke-opacity=".35" stroke-width="${w.toFixed(3)}" fill="none"/>`);
    }
    for (let i = 0; i < n; i++) {
      const sw = i === 0 || i === n - 1 ? 0.05 : 0.03;
      p.push(`<line x1="1" y1="${1 + i}" x2="${n}" y2="${1 + i}" stroke="#281a08" stroke-width="${sw}"/>`);
      p.push(`<line x1="${1 + i}" y1="1" x2="${1 + i}" y2="${n}" stroke="#281a08" stroke-width="${sw}"/>`);
    }
    for (const [x, y] of stars(n)) p.push(`<circle cx="${1 + x}" cy="${1 + y}" r=".1" fill="#281a08"/>`);
    this.fit();
    const fs = this.fs.toFixed(3);
    const coord = (x, y, label) => `<text class="coord" x="${x}" y="${y}" font-size="${fs}" text-anchor="middle" dominant-baseline="middle" fill="#3c260c" font-family="sans-serif">${label}</text>`;
    for (let i = 0; i < n; i++) {
      const L = COLS[i], num = String(n - i);
      p.push(coord(1 + i, 0.2, L), coord(1 + i, n + 0.8, L), coord(0.2, 1 + i, num), coord(n + 0.8, 1 + i, num));
    }
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const s = v.board[r][c];
        const name = pointName(c, r, n);
        const x = 1 + c, y = 1 + r;
        if (s === 'X' || s === 'O') {
          const isDead = dead.has(name);
          const op = isDead ? ' opacity=".55"' : '';
          p.push(`<circle cx="${x + 0.04}" cy="${y + 0.06}" r=".47" fill="#000" opacity="${isDead ? 0.15 : 0.35}"/>`);
          p.push(`<circle cx="${x}" cy="${y}" r=".47" fill="url(#g${s === 'X' ? 'b' : 'w'})"${s === 'O' ? ' stroke="#5a4e3c" stroke-opacity=".6" stroke-width=".02"' : ''}${op}/>`);
          if (isDead) {
            const k = s === 'X' ? '#f5f5f5' : '#101010';
            p.push(`<path d="M${x - 0.2} ${y - 0.2}L${x + 0.2} ${y + 0.2}M${x + 0.2} ${y - 0.2}L${x - 0.2} ${y + 0.2}" stroke="${k}" stroke-width=".07"/>`);
          }
          if (name === last) {
            p.push(`<circle cx="${x}" cy="${y}" r=".2" fill="none" stroke="${s === 'X' ? '#ffba3c' : '#d02018'}" stroke-width=".07"/>`);
          }
        }
        if (v.scoring) {
          const o = v.scoring.owner[r][c];
          // Empty points only, as Discord's picture: a dead stone's cross
          // (in the taker's colour) says whose point it is.
          if ((o === 'X' || o === 'O') && s === '.') {
            p.push(`<rect x="${x - 0.15}" y="${y - 0.15}" width=".3" height=".3" fill="${o === 'X' ? '#101012' : '#fafaf8'}" stroke="#3c3228" stroke-width=".02"/>`);
          }
        }
      }
    }
    if (v.ko) {
      const { col, r } = parsePoint(v.ko, n);
      p.push(`<rect x="${1 + col - 0.2}" y="${1 + r - 0.2}" width=".4" height=".4" fill="none" stroke="#140e06" stroke-width=".06"/>`);
    }
    if (extra.ghost) {
      const { col, r } = parsePoint(extra.ghost.point, n);
      const g = extra.ghost;
      p.push(`<circle cx="${1 + col}" cy="${1 + r}" r=".47" fill="url(#g${g.color === 'black' ? 'b' : 'w'})" opacity="${g.pending ? 0.8 : 0.5}"/>`);
      if (g.pending) p.push(`<circle cx="${1 + col}" cy="${1 + r}" r=".5" fill="none" stroke="#5865f2" stroke-width=".06"/>`);
    }
    this.svg.innerHTML = p.join('');
    // The buttons: what a screen reader reads for each point.
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const b = this.buttons[r * n + c];
        const s = v.board[r][c];
        const name = b.dataset.point;
        let label = name + ', ' + (STONE[s] ? STONE[s] + ' stone' : 'empty');
        if (dead.has(name)) label += ', marked dead';
        if (name === last) label += ', last move';
        if (name === v.ko) label += ', ko: cannot be retaken now';
        if (v.scoring && s === '.') {
          const o = v.scoring.owner[r][c];
          if (o !== '.') label += ', ' + STONE[o] + "'s territory";
        }
        b.setAttribute('aria-label', label);
        b.dataset.stone = s;
      }
    }
    this.grid.classList.toggle('idle', !extra.active);
  }
}
