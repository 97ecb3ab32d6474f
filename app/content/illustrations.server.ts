// Flat vector illustrations for Sagwan Living, drawn on the server as SVG strings.
// No external references: no fonts (except a system serif stack in avatars), no images,
// no scripts, no ids (so several can be inlined on one page without clashes).

export type CategoryKind = "living-room" | "bedroom" | "dining-room" | "office" | "outdoor";

const KINDS: readonly CategoryKind[] = ["living-room", "bedroom", "dining-room", "office", "outdoor"];

export function isCategoryKind(v: string): v is CategoryKind {
  return (KINDS as readonly string[]).includes(v);
}

export const colourPalette: Record<string, string> = {
  "Walnut Brown": "#6b4a2f",
  Teak: "#a8703a",
  "Charcoal Grey": "#4a4e53",
  Ivory: "#efe7d6",
  "Indigo Blue": "#34487a",
  "Mustard Yellow": "#d19f38",
  "Emerald Green": "#2f7a5c",
  Terracotta: "#c0694a",
  "Natural Oak": "#c9a274",
  Black: "#2a2b2e",
  Beige: "#d9c6a6",
  Rosewood: "#7a3b34",
  "Sage Green": "#8fa58c",
};

/** Warm wood tone used when a colour name is unknown. */
const FALLBACK = "#9a6b3f";
const WOOD_DARK = "#5a3b22";
const METAL = "#3b3d40";
const WALLS = ["#f4ede3", "#efe5d7", "#f3ebe5", "#ebe7dc"] as const;
const ACCENTS = ["#e9dcc3", "#d9a441", "#8fa58c", "#c7774f", "#52679a", "#b98b82"] as const;
const GREENS = ["#6f8f6b", "#87a57f", "#58785a"] as const;
const LABELS: Record<CategoryKind, string> = {
  "living-room": "Sofa",
  bedroom: "Bed",
  "dining-room": "Dining set",
  office: "Desk and office chair",
  outdoor: "Patio set",
};

// ---------- helpers ----------

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) =>
    ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : ch === ">" ? "&gt;" : ch === '"' ? "&quot;" : "&apos;",
  );
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(a: string, b: string, t: number): string {
  const x = rgb(a);
  const y = rgb(b);
  return (
    "#" +
    x
      .map((v, i) => Math.round(v + (y[i] - v) * t))
      .map((v) => v.toString(16).padStart(2, "0"))
      .join("")
  );
}

/** t > 0 lightens towards white, t < 0 darkens towards black. */
function shade(c: string, t: number): string {
  return t >= 0 ? mix(c, "#ffffff", t) : mix(c, "#000000", -t);
}

function luma(c: string): number {
  const [r, g, b] = rgb(c);
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
}

function distance(a: string, b: string): number {
  const x = rgb(a);
  const y = rgb(b);
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

function resolveColour(name: string): string {
  const direct = colourPalette[name];
  if (direct) return direct;
  const key = Object.keys(colourPalette).find((k) => k.toLowerCase() === name.trim().toLowerCase());
  return key ? colourPalette[key] : FALLBACK;
}

function rect(x: number, y: number, w: number, h: number, rx: number, fill: string, op?: number): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"${op === undefined ? "" : ` opacity="${op}"`}/>`;
}

function ell(cx: number, cy: number, rx: number, ry: number, fill: string, op?: number): string {
  return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}"${op === undefined ? "" : ` opacity="${op}"`}/>`;
}

function path(d: string, fill: string, op?: number): string {
  return `<path d="${d}" fill="${fill}"${op === undefined ? "" : ` opacity="${op}"`}/>`;
}

function line(x1: number, y1: number, x2: number, y2: number, stroke: string, w: number): string {
  return `<path d="M${x1} ${y1}L${x2} ${y2}" stroke="${stroke}" stroke-width="${w}" stroke-linecap="round" fill="none"/>`;
}

function g(transform: string, body: string): string {
  return `<g transform="${transform}">${body}</g>`;
}

function open(w: number, h: number, title: string): string {
  const size = `width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" ${size} role="img"><title>${esc(title)}</title>`;
}

// ---------- room and decor (800 x 600 frame, wall meets floor at y = 440) ----------

function room(wall: string, outdoor: boolean): string {
  if (outdoor) {
    const deck = "#d8c09c";
    return [
      rect(0, 0, 800, 440, 0, wall),
      ell(640, 120, 60, 60, "#fff6df", 0.7),
      path("M0 440V380Q60 330 120 372Q180 320 250 366Q320 318 400 362Q480 316 560 364Q640 322 700 368Q760 334 800 360V440Z", "#a9bd9d"),
      path("M0 440V404Q90 372 180 400Q290 370 400 398Q520 368 620 398Q720 374 800 396V440Z", "#93ab8a"),
      rect(0, 440, 800, 160, 0, deck),
      [474, 512, 556].map((y) => rect(0, y, 800, 3, 0, shade(deck, -0.08))).join(""),
    ].join("");
  }
  const floor = mix(wall, "#b4906a", 0.42);
  return [
    rect(0, 0, 800, 440, 0, wall),
    rect(0, 0, 800, 440, 0, "#ffffff", 0.12),
    rect(0, 428, 800, 14, 0, shade(wall, 0.35)),
    rect(0, 440, 800, 160, 0, floor),
    rect(0, 440, 800, 8, 0, "#000", 0.05),
  ].join("");
}

function plant(x: number, y: number, s: number): string {
  const [a, b, c] = GREENS;
  return g(
    `translate(${x} ${y}) scale(${s})`,
    [
      ell(0, 0, 44, 8, "#000", 0.12),
      ell(-22, -150, 16, 58, a),
      `<ellipse cx="24" cy="-140" rx="15" ry="54" fill="${b}" transform="rotate(24 24 -140)"/>`,
      `<ellipse cx="-34" cy="-112" rx="13" ry="46" fill="${c}" transform="rotate(-34 -34 -112)"/>`,
      `<ellipse cx="6" cy="-176" rx="13" ry="50" fill="${c}" transform="rotate(6 6 -176)"/>`,
      `<ellipse cx="36" cy="-98" rx="12" ry="38" fill="${a}" transform="rotate(48 36 -98)"/>`,
      path("M-30-64h60l-8 64h-44z", "#c98a62"),
      rect(-34, -74, 68, 14, 5, "#b8744d"),
    ].join(""),
  );
}

function floorLamp(x: number, y: number): string {
  return [
    ell(x, y - 150, 90, 90, "#fff3d2", 0.35),
    ell(x, y, 34, 7, "#000", 0.12),
    rect(x - 22, y - 8, 44, 8, 4, METAL),
    rect(x - 3, y - 230, 6, 224, 3, METAL),
    path(`M${x - 44} ${y - 200}h88l-16-64h-56z`, "#f2e4c8"),
    path(`M${x - 44} ${y - 200}h88l-2-8h-84z`, "#000", 0.08),
  ].join("");
}

function sideTable(x: number, y: number, flowers: string): string {
  return [
    ell(x, y, 50, 8, "#000", 0.12),
    rect(x - 48, y - 104, 96, 14, 6, "#9a6b3f"),
    rect(x - 40, y - 90, 6, 90, 3, WOOD_DARK),
    rect(x + 34, y - 90, 6, 90, 3, WOOD_DARK),
    rect(x - 40, y - 40, 80, 6, 3, WOOD_DARK),
    path(`M${x - 14} ${y - 104}c-6-20-4-40 6-52h16c10 12 12 32 6 52z`, "#e9e1d2"),
    line(x, y - 156, x - 18, y - 200, "#6f8f6b", 3),
    line(x, y - 156, x + 14, y - 206, "#6f8f6b", 3),
    ell(x - 18, y - 204, 9, 9, flowers),
    ell(x + 14, y - 210, 9, 9, shade(flowers, 0.2)),
  ].join("");
}

function wallArt(x: number, y: number, w: number, h: number, accent: string): string {
  return [
    rect(x + 4, y + 6, w, h, 4, "#000", 0.08),
    rect(x, y, w, h, 4, "#8b5e34"),
    rect(x + 8, y + 8, w - 16, h - 16, 2, "#fbf7f0"),
    ell(x + w * 0.66, y + h * 0.38, w * 0.12, w * 0.12, accent, 0.85),
    path(
      `M${x + 8} ${y + h - 8}V${y + h * 0.7}` +
        `Q${x + w * 0.35} ${y + h * 0.42} ${x + w * 0.6} ${y + h * 0.66}T${x + w - 8} ${y + h * 0.6}V${y + h - 8}z`,
      "#a9bd9d",
    ),
  ].join("");
}

function decor(kind: number, x: number, y: number, accent: string): string {
  return kind === 0 ? plant(x, y, 1) : kind === 1 ? floorLamp(x, y) : sideTable(x, y, accent);
}

// ---------- furniture (800 x 600 frame, standing at y ~ 494) ----------

interface Look {
  c: string;
  accent: string;
  accent2: string;
}

function sofa({ c, accent, accent2 }: Look): string {
  return [
    ell(400, 494, 280, 14, "#000", 0.14),
    rect(186, 466, 14, 30, 4, WOOD_DARK),
    rect(600, 466, 14, 30, 4, WOOD_DARK),
    rect(172, 252, 456, 170, 34, shade(c, -0.1)),
    rect(196, 268, 200, 124, 26, c),
    rect(404, 268, 200, 124, 26, c),
    rect(210, 276, 172, 10, 5, "#fff", 0.12),
    rect(418, 276, 172, 10, 5, "#fff", 0.12),
    rect(150, 400, 500, 74, 20, shade(c, -0.18)),
    rect(192, 374, 210, 54, 18, shade(c, 0.08)),
    rect(398, 374, 210, 54, 18, shade(c, 0.08)),
    rect(128, 316, 82, 160, 34, c),
    rect(590, 316, 82, 160, 34, c),
    rect(140, 324, 58, 12, 6, "#fff", 0.15),
    rect(602, 324, 58, 12, 6, "#fff", 0.15),
    g("rotate(-10 262 350)", rect(220, 310, 86, 80, 22, accent) + rect(232, 320, 62, 14, 7, "#fff", 0.18)),
    g("rotate(9 536 352)", rect(496, 314, 80, 76, 22, accent2) + rect(508, 324, 56, 12, 6, "#fff", 0.18)),
  ].join("");
}

function bed({ c, accent, accent2 }: Look): string {
  const sheet = "#fbf8f2";
  return [
    ell(400, 500, 290, 14, "#000", 0.14),
    rect(196, 200, 408, 230, 22, c),
    rect(218, 222, 364, 150, 14, shade(c, 0.1)),
    rect(218, 222, 364, 12, 6, "#fff", 0.12),
    path("M204 360H596L650 430H150Z", sheet),
    rect(238, 326, 150, 54, 22, "#fffdf9"),
    rect(412, 326, 150, 54, 22, "#fffdf9"),
    rect(250, 336, 126, 8, 4, "#000", 0.04),
    g("rotate(-6 330 370)", rect(290, 344, 80, 44, 16, luma(accent2) > 0.8 ? shade(accent2, -0.18) : accent2)),
    path("M176 392H624L650 430H150Z", accent),
    rect(150, 428, 500, 40, 6, shade(accent, -0.1)),
    rect(150, 428, 500, 6, 3, "#fff", 0.15),
    rect(140, 462, 520, 30, 8, shade(c, -0.14)),
    rect(150, 490, 16, 12, 3, WOOD_DARK),
    rect(634, 490, 16, 12, 3, WOOD_DARK),
    path("M176 392H624L632 404H168Z", "#000", 0.06),
  ].join("");
}

function nightstand(x: number, y: number, lamp: boolean, accent: string): string {
  return [
    ell(x, y + 2, 52, 8, "#000", 0.12),
    rect(x - 46, y - 96, 92, 90, 8, "#a57846"),
    rect(x - 38, y - 86, 76, 32, 5, "#b98a56"),
    rect(x - 38, y - 48, 76, 32, 5, "#b98a56"),
    rect(x - 8, y - 72, 16, 5, 2, WOOD_DARK),
    rect(x - 8, y - 34, 16, 5, 2, WOOD_DARK),
    rect(x - 40, y - 6, 8, 8, 2, WOOD_DARK),
    rect(x + 32, y - 6, 8, 8, 2, WOOD_DARK),
    lamp
      ? ell(x, y - 150, 60, 60, "#fff3d2", 0.4) +
        path(`M${x - 12} ${y - 96}c-4-14 0-30 12-36c12 6 16 22 12 36z`, accent) +
        path(`M${x - 30} ${y - 140}h60l-12-40h-36z`, "#f2e4c8")
      : path(`M${x - 12} ${y - 96}c-6-16-2-34 6-40h12c8 6 12 24 6 40z`, "#e9e1d2") +
        ell(x - 10, y - 160, 14, 30, GREENS[0]) +
        `<ellipse cx="12" cy="-158" rx="12" ry="28" fill="${GREENS[1]}" transform="translate(${x} ${y}) rotate(24 12 -158)"/>`,
  ].join("");
}

function dining({ c, accent }: Look): string {
  const frame = shade(c, -0.12);
  const seat = luma(c) > 0.7 ? shade(c, -0.06) : accent;
  const backChair = (x: number): string =>
    [
      rect(x - 48, 238, 96, 110, 18, frame),
      rect(x - 38, 248, 76, 80, 12, seat),
      rect(x - 40, 360, 10, 130, 4, shade(frame, -0.15)),
      rect(x + 30, 360, 10, 130, 4, shade(frame, -0.15)),
    ].join("");
  const sideChair = (x: number, dir: 1 | -1): string => {
    const b = dir === 1 ? x : x - 20;
    const s = dir === 1 ? x : x - 96;
    const f = dir === 1 ? x + 84 : x - 96;
    return [
      ell(x + dir * 44, 494, 66, 8, "#000", 0.12),
      rect(b, 250, 20, 244, 8, frame),
      rect(dir === 1 ? b + 4 : b - 6, 262, 22, 120, 10, seat),
      rect(s, 384, 96, 24, 8, frame),
      rect(dir === 1 ? s + 4 : s - 2, 376, 94, 14, 7, seat),
      rect(f, 400, 12, 94, 4, frame),
    ].join("");
  };
  return [
    line(400, -40, 400, 130, METAL, 3),
    ell(400, 180, 80, 40, "#fff3d2", 0.4),
    path("M350 170Q350 128 400 128Q450 128 450 170Z", "#8b5e34"),
    rect(346, 166, 108, 8, 4, shade("#8b5e34", -0.2)),
    ell(400, 496, 240, 12, "#000", 0.14),
    backChair(296),
    backChair(504),
    rect(184, 332, 432, 22, 7, c),
    rect(184, 332, 432, 6, 3, "#fff", 0.18),
    rect(200, 354, 400, 18, 4, shade(c, -0.16)),
    rect(210, 370, 18, 124, 5, shade(c, -0.12)),
    rect(572, 370, 18, 124, 5, shade(c, -0.12)),
    ell(340, 326, 46, 8, "#f8f3ea"),
    ell(330, 318, 14, 12, "#d9a441"),
    ell(350, 318, 13, 11, "#c7774f"),
    ell(342, 308, 12, 10, "#87a57f"),
    path("M452 330c-6-20-2-40 8-48h14c10 8 14 28 8 48z", "#e9e1d2"),
    line(467, 284, 450, 240, GREENS[0], 3),
    line(467, 284, 484, 236, GREENS[0], 3),
    ell(450, 238, 12, 7, GREENS[1]),
    ell(486, 234, 12, 7, GREENS[2]),
    sideChair(96, 1),
    sideChair(704, -1),
  ].join("");
}

function officeChair(c: string, x: number): string {
  const back = shade(c, -0.08);
  return [
    ell(x, 498, 110, 10, "#000", 0.14),
    rect(x - 64, 270, 128, 150, 34, back),
    rect(x - 52, 282, 104, 120, 26, c),
    rect(x - 40, 292, 80, 10, 5, "#fff", 0.14),
    rect(x - 80, 374, 20, 52, 8, METAL),
    rect(x + 60, 374, 20, 52, 8, METAL),
    rect(x - 86, 368, 32, 12, 6, back),
    rect(x + 54, 368, 32, 12, 6, back),
    rect(x - 76, 414, 152, 30, 15, shade(c, 0.06)),
    rect(x - 7, 444, 14, 34, 4, "#6b6e72"),
    path(`M${x - 80} 486L${x - 6} 472h12L${x + 80} 486l-4 6L${x} 482l-76 10z`, METAL),
    ell(x - 78, 494, 9, 9, "#222"),
    ell(x + 78, 494, 9, 9, "#222"),
    ell(x, 490, 9, 9, "#222"),
  ].join("");
}

function office({ c, accent }: Look, lampLeft: boolean): string {
  const top = c;
  const body = shade(c, -0.14);
  const lx = lampLeft ? 270 : 600;
  return [
    ell(430, 496, 250, 12, "#000", 0.12),
    rect(212, 326, 436, 20, 6, top),
    rect(212, 326, 436, 6, 3, "#fff", 0.18),
    rect(228, 346, 14, 146, 4, body),
    rect(506, 346, 126, 146, 8, body),
    rect(516, 356, 106, 40, 6, shade(c, -0.05)),
    rect(516, 402, 106, 40, 6, shade(c, -0.05)),
    rect(516, 448, 106, 36, 6, shade(c, -0.05)),
    rect(556, 372, 26, 6, 3, "#d9c6a6"),
    rect(556, 418, 26, 6, 3, "#d9c6a6"),
    rect(556, 462, 26, 6, 3, "#d9c6a6"),
    rect(422, 294, 14, 32, 4, METAL),
    rect(396, 318, 66, 8, 4, METAL),
    rect(350, 196, 158, 104, 10, "#2f3235"),
    rect(358, 204, 142, 88, 6, "#5f7f86"),
    path("M358 292L430 230L500 270V292Z", "#6f9198"),
    ell(470, 230, 12, 12, "#e9d9b4"),
    ell(lx, 240, 70, 70, "#fff3d2", 0.35),
    rect(lx - 22, 318, 44, 8, 4, METAL),
    line(lx, 320, lx + (lampLeft ? 22 : -22), 262, METAL, 5),
    line(lx + (lampLeft ? 22 : -22), 262, lx, 226, METAL, 5),
    g(`rotate(${lampLeft ? 20 : -20} ${lx} 226)`, path(`M${lx - 26} 244h52l-10-34h-32z`, accent)),
    rect(lampLeft ? 556 : 240, 300, 46, 26, 3, "#e9dcc3"),
    rect(lampLeft ? 560 : 244, 294, 40, 8, 2, "#8fa58c"),
    officeChair(c, 340),
  ].join("");
}

function loungeChair(x: number, dir: 1 | -1, c: string, cushion: string): string {
  // Drawn facing right (dir 1) and mirrored for dir -1.
  const body = [
    ell(60, 94, 80, 8, "#000", 0.12),
    g("rotate(-10 16 -50)", rect(-4, -122, 44, 144, 16, c)),
    rect(0, 8, 130, 18, 8, c),
    rect(4, 26, 12, 68, 4, shade(c, -0.2)),
    rect(110, 26, 12, 68, 4, shade(c, -0.2)),
    rect(28, -2, 108, 24, 12, cushion),
    g("rotate(-10 16 -50)", rect(6, -112, 30, 118, 14, shade(cushion, -0.06))),
    rect(36, -36, 96, 12, 6, shade(c, -0.1)),
    rect(122, -36, 12, 56, 5, shade(c, -0.1)),
  ].join("");
  return g(`translate(${x} 400) scale(${dir} 1)`, body);
}

function stringLights(accent: string): string {
  const q = (t: number, a: number, b: number, c: number): number => Math.round((1 - t) ** 2 * a + 2 * (1 - t) * t * b + t * t * c);
  const bulbs: string[] = [];
  for (const [x0, x1] of [
    [0, 400],
    [400, 800],
  ]) {
    for (let i = 1; i < 6; i++) {
      const t = i / 6;
      const x = q(t, x0, (x0 + x1) / 2, x1);
      const y = q(t, 70, 150, 70);
      bulbs.push(ell(x, y + 10, 14, 14, "#fff3d2", 0.6) + ell(x, y + 10, 6, 8, i % 2 ? "#f6d58a" : accent));
    }
  }
  return `<path d="M0 70Q200 150 400 70Q600 150 800 70" stroke="#6b5a48" stroke-width="2" fill="none"/>${bulbs.join("")}`;
}

function outdoor({ c, accent, accent2 }: Look, parasol: boolean, lights: boolean): string {
  const cushion = luma(c) > 0.7 ? accent : shade(c, 0.55);
  return [
    parasol
      ? [
          ell(400, 496, 60, 8, "#000", 0.1),
          rect(396, 130, 8, 360, 4, "#8b5e34"),
          path("M220 206Q290 118 400 108Q510 118 580 206Q535 190 490 206Q445 190 400 206Q355 190 310 206Q265 190 220 206Z", accent2),
          path("M400 108Q340 140 310 206Q355 190 400 206Z", "#fff", 0.25),
          path("M400 108Q460 140 490 206Q445 190 400 206Z", "#000", 0.06),
          ell(400, 110, 8, 8, "#8b5e34"),
        ].join("")
      : plant(640, 494, 0.9) + plant(170, 494, 0.7) + (lights ? stringLights(accent) : ""),
    loungeChair(180, 1, c, cushion),
    loungeChair(620, -1, c, cushion),
    ell(400, 496, 80, 9, "#000", 0.14),
    ell(400, 392, 82, 16, shade(c, -0.1)),
    ell(400, 388, 82, 16, c),
    rect(394, 396, 12, 92, 4, shade(c, -0.2)),
    rect(362, 484, 76, 8, 4, shade(c, -0.2)),
    rect(382, 358, 16, 26, 4, "#f8f3ea"),
    rect(404, 362, 14, 22, 4, "#f8f3ea"),
    ell(390, 360, 8, 3, "#c7774f"),
    ell(411, 364, 7, 3, "#c7774f"),
    ell(430, 380, 10, 4, "#fff", 0.25),
  ].join("");
}

// ---------- public API ----------

interface SceneOpts {
  c: string;
  wall: string;
  accent: string;
  accent2: string;
  decorKind: number;
  decorLeft: boolean;
  art: boolean;
  flip: boolean;
}

function pieceFor(kind: CategoryKind, o: SceneOpts): string {
  const look: Look = { c: o.c, accent: o.accent, accent2: o.accent2 };
  switch (kind) {
    case "living-room":
      return (
        (o.art ? wallArt(o.decorLeft ? 430 : 240, 96, 130, 96, o.accent2) : "") +
        decor(o.decorKind, o.decorLeft ? 70 : 730, 494, o.accent2) +
        sofa(look)
      );
    case "bedroom":
      return (
        (o.art ? wallArt(330, 70, 140, 100, o.accent2) : "") +
        nightstand(o.decorLeft ? 80 : 720, 494, o.decorKind !== 0, o.accent2) +
        bed(look)
      );
    case "dining-room":
      return (o.art ? wallArt(o.decorLeft ? 110 : 580, 110, 110, 140, o.accent) : "") + dining(look);
    case "office":
      return (
        (o.art ? wallArt(o.decorLeft ? 80 : 640, 150, 90, 120, o.accent2) : "") +
        (o.decorKind === 0 ? plant(o.decorLeft ? 110 : 720, 494, 0.85) : "") +
        office(look, o.flip)
      );
    case "outdoor":
      return outdoor(look, o.flip, o.decorKind === 1);
  }
}

function scene(kind: CategoryKind, o: SceneOpts): string {
  return room(o.wall, kind === "outdoor") + pieceFor(kind, o);
}

function optsFor(c: string, seed: string): SceneOpts {
  const h = hash(seed);
  const accents = ACCENTS.filter((a) => distance(a, c) > 60);
  const a1 = accents[(h >>> 3) % accents.length];
  let a2 = accents[(h >>> 7) % accents.length];
  if (a2 === a1) a2 = accents[((h >>> 7) + 1) % accents.length];
  return {
    c,
    wall: WALLS[h % WALLS.length],
    accent: a1,
    accent2: a2,
    decorKind: (h >>> 11) % 3,
    decorLeft: ((h >>> 13) & 1) === 1,
    art: ((h >>> 14) & 3) !== 0,
    flip: ((h >>> 16) & 1) === 1,
  };
}

export function productSvg(kind: CategoryKind, colourName: string, seed: string): string {
  const c = resolveColour(colourName);
  return `${open(800, 600, `${LABELS[kind]} in ${colourName}`)}${scene(kind, optsFor(c, seed))}</svg>`;
}

const CATEGORY_LOOK: Record<CategoryKind, { colour: string; backdrop: string }> = {
  "living-room": { colour: "Mustard Yellow", backdrop: "#e3ead8" },
  bedroom: { colour: "Sage Green", backdrop: "#f0dccb" },
  "dining-room": { colour: "Walnut Brown", backdrop: "#e8dcc6" },
  office: { colour: "Charcoal Grey", backdrop: "#dfe3e0" },
  outdoor: { colour: "Teak", backdrop: "#f3e3c6" },
};

export function categorySvg(kind: CategoryKind): string {
  const look = CATEGORY_LOOK[kind];
  const o: SceneOpts = {
    c: colourPalette[look.colour],
    wall: "#f4ede3",
    accent: kind === "bedroom" ? "#e9dcc3" : "#c7774f",
    accent2: kind === "living-room" ? "#8fa58c" : "#d9a441",
    decorKind: 0,
    decorLeft: kind !== "bedroom",
    art: false,
    flip: kind === "outdoor",
  };
  const backdrop = kind === "outdoor" ? "" : path("M230 440V230A170 170 0 0 1 570 230V440Z", look.backdrop);
  return `${open(800, 600, `${LABELS[kind]} illustration`)}${room(o.wall, kind === "outdoor")}${backdrop}${pieceFor(kind, o)}</svg>`;
}

export function heroSvg(index: 1 | 2 | 3): string {
  const wall = ["#efe6d8", "#f1e8dc", "#ede5da"][index - 1];
  const floor = mix(wall, "#b4906a", 0.42);
  // The left ~45% stays quiet: plain wall, floor and a faint window of light.
  const base = [
    rect(0, 0, 1600, 540, 0, wall),
    rect(0, 526, 1600, 14, 0, shade(wall, 0.35)),
    rect(0, 540, 1600, 160, 0, floor),
    rect(0, 540, 1600, 8, 0, "#000", 0.05),
    path("M120 0H420L300 700H0V160Z", "#fff", 0.1),
  ].join("");
  // Pieces are drawn in the 800 x 600 frame and scaled so its floor line (440) meets ours (540).
  const at = (x: number, body: string): string => g(`translate(${x} 12) scale(1.2)`, body);
  let body: string;
  let title: string;
  if (index === 1) {
    title = "A calm living room with a sage sofa, rug, lamp and plant";
    const look: Look = { c: colourPalette["Sage Green"], accent: "#e9dcc3", accent2: "#c7774f" };
    body = [
      ell(1180, 640, 450, 46, "#c7774f", 0.35),
      ell(1180, 640, 410, 38, "#e9dcc3", 0.65),
      wallArt(1030, 110, 150, 115, "#d9a441"),
      wallArt(1200, 140, 115, 86, "#c7774f"),
      at(700, floorLamp(80, 494) + plant(712, 494, 1) + sofa(look)),
    ].join("");
  } else if (index === 2) {
    title = "A warm dining room with a walnut table and chairs";
    const look: Look = { c: "#8b5e34", accent: "#e9dcc3", accent2: "#8fa58c" };
    body = [
      rect(740, 572, 830, 80, 20, "#e9dcc3", 0.55),
      wallArt(1390, 110, 110, 150, "#8fa58c"),
      wallArt(880, 150, 90, 110, "#d9a441"),
      at(660, dining(look)),
    ].join("");
  } else {
    title = "A restful bedroom with a soft bed, nightstand and lamp";
    const look: Look = { c: "#d9c6a6", accent: "#8fa58c", accent2: "#c7774f" };
    body = [
      ell(1180, 650, 440, 40, "#8fa58c", 0.25),
      wallArt(1090, 76, 180, 122, "#c7774f"),
      at(700, nightstand(80, 494, true, "#c7774f") + plant(722, 494, 0.9) + bed(look)),
    ].join("");
  }
  return `${open(1600, 700, title)}${base}${body}</svg>`;
}

const AVATAR_COLOURS = ["#8b5e34", "#a8703a", "#6f8f6b", "#c0694a", "#7a3b34", "#52679a", "#b0873e"] as const;

export function avatarSvg(seed: string, initials: string): string {
  const bg = AVATAR_COLOURS[hash(seed) % AVATAR_COLOURS.length];
  const text = esc(
    Array.from(initials.trim())
      .filter((ch) => /\p{L}|\p{N}/u.test(ch))
      .slice(0, 2)
      .join("")
      .toUpperCase() || "?",
  );
  return [
    open(200, 200, `Avatar ${initials}`),
    `<circle cx="100" cy="100" r="100" fill="${bg}"/>`,
    `<circle cx="100" cy="100" r="92" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="3"/>`,
    path("M100 0A100 100 0 0 1 200 100H0A100 100 0 0 1 100 0Z", "#fff", 0.08),
    `<text x="100" y="100" dy=".35em" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif" ` +
      `font-size="78" fill="#fffaf2">${text}</text>`,
    "</svg>",
  ].join("");
}
