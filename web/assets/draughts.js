// draughts.js draws an international draughts board (10×10) as SVG, in
// lidraughts' colours: the dark squares numbered 1 to 50 (the numbers in
// the buttons over the drawing), men as discs and kings as discs with a
// crown, the last move's squares tinted, the selected piece and where it
// may go marked. Over it lies a grid of buttons, one per square (the
// light ones inert), each labelled for screen readers, so that a click, a
// tap and a key press all land on the square drawn under them. White is
// at the bottom unless flip.

const SVG_DEFS = `<defs>
<radialGradient id="dw" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#ffffff"/><stop offset=".7" stop-color="#ece6d8"/><stop offset="1" stop-color="#c9bfa8"/></radialGradient>
<radialGradient id="db" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#5a5652"/><stop offset=".7" stop-color="#26231f"/><stop offset="1" stop-color="#0c0b0a"/></radialGradient>
</defs>`;

// squareAt is where square s (1 to 50) is from White's side: its row
// from the top and its column from the left. Square 1 is the dark square
// in the second column of the top row; 46 to 50 make up the bottom row.
export function squareAt(s) {
  const r = Math.floor((s - 1) / 5);
  return { r, c: 2 * ((s - 1) % 5) + (r % 2 === 0 ? 1 : 0) };
}

const NAMES = { w: 'white man', b: 'black man', W: 'white king', B: 'black king' };

export class DraughtsBoard {
  // svg is the drawing, grid the element the buttons go in; onSquare(n)
  // is called for a press on dark square n.
  constructor(svg, grid, { onSquare }) {
    this.svg = svg;
    this.grid = grid;
    this.onSquare = onSquare;
    this.built = false;
    this.flip = false;
    this.buttons = {};
  }

  // at is where square s is drawn: its row and column on the screen.
  at(s) {
    const { r, c } = squareAt(s);
    return this.flip ? { r: 9 - r, c: 9 - c } : { r, c };
  }

  layout(flip) {
    if (this.built && this.flip === flip) return;
    this.built = true;
    this.flip = flip;
    const g = this.grid;
    g.replaceChildren();
    const s = g.style;
    s.left = s.top = '0';
    s.width = s.height = '100%';
    s.gridTemplateColumns = 'repeat(10, 1fr)';
    s.gridTemplateRows = 'repeat(10, 1fr)';
    this.buttons = {};
    const cells = [];
    for (let i = 0; i < 100; i++) cells.push(null);
    for (let q = 1; q <= 50; q++) {
      const { r, c } = this.at(q);
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'gridcell');
      b.dataset.square = String(q);
      // The square's number, over the drawing and any piece on it: the
      // only coordinates draughts has, kept readable on a phone (app.css).
      const num = document.createElement('span');
      num.className = 'num';
      num.setAttribute('aria-hidden', 'true');
      num.textContent = String(q);
      b.appendChild(num);
      b.tabIndex = q === 1 ? 0 : -1;
      b.addEventListener('click', () => this.onSquare(q));
      b.addEventListener('keydown', (e) => this.key(e, q));
      this.buttons[q] = b;
      cells[r * 10 + c] = b;
    }
    for (let r = 0; r < 10; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'row';
      for (let c = 0; c < 10; c++) {
        let el = cells[r * 10 + c];
        if (!el) {
          el = document.createElement('span');
          el.setAttribute('aria-hidden', 'true');
        }
        row.appendChild(el);
      }
      g.appendChild(row);
    }
    this.svg.setAttribute('viewBox', '0 0 10 10');
  }

  // key moves between the dark squares diagonally with the arrow keys
  // (up and down go to the neighbouring row, left or right as pressed).
  key(e, q) {
    const { r, c } = this.at(q);
    let dr = 0, dc = 0;
    switch (e.key) {
      case 'ArrowUp': dr = -1; dc = c > 0 ? -1 : 1; break;
      case 'ArrowDown': dr = 1; dc = c < 9 ? 1 : -1; break;
      case 'ArrowLeft': dr = r > 0 ? -1 : 1; dc = -1; break;
      case 'ArrowRight': dr = r < 9 ? 1 : -1; dc = 1; break;
      default: return;
    }
    e.preventDefault();
    for (const [n, b] of Object.entries(this.buttons)) {
      const p = this.at(Number(n));
      if (p.r === r + dr && p.c === c + dc) {
        this.buttons[q].tabIndex = -1;
        b.tabIndex = 0;
        b.focus();
        return;
      }
    }
  }

  // draw shows a game of draughts; extra says what else to mark: flip
  // (Black at the bottom), selected (the square of the piece chosen),
  // targets (squares it may go to), choices (landing squares that tell
  // two ways apart), active (whether presses do anything now).
  draw(v, extra) {
    this.layout(!!extra.flip);
    const d = v.draughts;
    const last = new Set(d.last_path || []);
    const taken = new Set(d.last_taken || []);
    const targets = new Set(extra.targets || []);
    const choices = new Set(extra.choices || []);
    const p = [SVG_DEFS];
    p.push('<rect x="0" y="0" width="10" height="10" fill="#f0d9b5"/>');
    for (let q = 1; q <= 50; q++) {
      const { r, c } = this.at(q);
      p.push(`<rect x="${c}" y="${r}" width="1" height="1" fill="#b58863"/>`);
      if (last.has(q)) p.push(`<rect x="${c}" y="${r}" width="1" height="1" fill="#9bc700" opacity=".45"/>`);
      if (q === extra.selected) p.push(`<rect x="${c}" y="${r}" width="1" height="1" fill="#14551e" opacity=".6"/>`);
    }
    for (let q = 1; q <= 50; q++) {
      const x = d.squares[q - 1];
      const { r, c } = this.at(q);
      const cx = c + 0.5, cy = r + 0.5;
      if (x) {
        const white = x === 'w' || x === 'W';
        const fill = white ? 'url(#dw)' : 'url(#db)';
        const edge = white ? '#7a705e' : '#000';
        p.push(`<circle cx="${cx + 0.03}" cy="${cy + 0.05}" r=".4" fill="#000" opacity=".35"/>`);
        p.push(`<circle cx="${cx}" cy="${cy}" r=".4" fill="${fill}" stroke="${edge}" stroke-width=".03"/>`);
        p.push(`<circle cx="${cx}" cy="${cy}" r=".27" fill="none" stroke="${white ? '#b9ad94' : '#4a4540'}" stroke-width=".035"/>`);
        if (x === 'W' || x === 'B') {
          // A crown: three points over a band, in gold.
          const k = `M${cx - 0.2} ${cy + 0.1}L${cx - 0.2} ${cy - 0.1}L${cx - 0.1} ${cy}L${cx} ${cy - 0.16}L${cx + 0.1} ${cy}L${cx + 0.2} ${cy - 0.1}L${cx + 0.2} ${cy + 0.1}Z`;
          p.push(`<path d="${k}" fill="#e0a800" stroke="#7a5600" stroke-width=".02" class="crown"/>`);
        }
      } else if (taken.has(q)) {
        p.push(`<circle cx="${cx}" cy="${cy}" r=".3" fill="none" stroke="#d04030" stroke-opacity=".7" stroke-width=".05" stroke-dasharray=".1 .08"/>`);
      }
      if (targets.has(q)) p.push(`<circle cx="${cx}" cy="${cy}" r=".14" fill="#14551e" opacity=".75"/>`);
      if (choices.has(q)) p.push(`<circle cx="${cx}" cy="${cy}" r=".42" fill="none" stroke="#ffb000" stroke-width=".07"/>`);
    }
    this.svg.innerHTML = p.join('');
    for (let q = 1; q <= 50; q++) {
      const b = this.buttons[q];
      const x = d.squares[q - 1];
      let label = `${q}, ${x ? NAMES[x] : 'empty'}`;
      if (q === extra.selected) label += ', selected';
      if (targets.has(q)) label += ', a move goes here';
      if (choices.has(q)) label += ', a way goes through here';
      if (last.has(q)) label += ', last move';
      b.setAttribute('aria-label', label);
      b.dataset.piece = x || '';
    }
    this.grid.classList.toggle('idle', !extra.active);
  }
}
