// Timelines for people: aligned steps in the terminal, and a self-contained SVG figure for reports.

import { fmtSeconds } from './lifecycle.js';
import { MIN_KILL_WINDOW, type Lane, type StepLevel, type Timeline, type TimelineStep } from './timeline.js';

// ---------------------------------------------------------------- text

/** Control characters from user data must not drive the terminal (or break the layout). */
function clean(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?').replace(/[\t\n]/g, ' ');
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || out.length === 0) out.push(line);
  return out;
}

const MARK: Record<StepLevel | 'ok', string> = { hazard: '!!', caution: '! ', note: 'i ', ok: 'ok' };

export function renderTimelineText(t: Timeline, opts: { color?: boolean; width?: number } = {}): string {
  const width = Math.max(60, opts.width ?? 100);
  const sgr = (code: string) => (s: string): string => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const paint: Record<StepLevel | 'ok' | 'plain', (s: string) => string> = {
    hazard: sgr('31'),
    caution: sgr('33'),
    note: sgr('36'),
    ok: sgr('32'),
    plain: (s) => s,
  };
  const bold = sgr('1');
  const dim = sgr('2');
  const lines: string[] = [];
  lines.push(bold(clean(t.workload)));
  lines.push(dim(`  ${describeInjection(t.injection)} · grace period ${fmtSeconds(t.grace)}${t.graceDefault ? ' (default)' : ''}`));
  for (const s of t.summary) {
    const tag = s.level ?? 'ok';
    const rule = s.rule ? `  [${s.rule}]` : '';
    lines.push(paint[tag](`  ${MARK[tag]} ${clean(s.text)}${rule}`));
  }

  const actors = t.steps.map((s) => clean(s.actor));
  const actorW = Math.min(22, Math.max(...actors.map((a) => a.length)));
  // a mark column before the text, so hazards stand out without colour too
  const step = (num: string, st: TimelineStep): void => {
    const actor = clean(st.actor);
    const mark = `${st.level ? MARK[st.level] : '  '} `;
    const lead = `    ${num}  `;
    const indent = ' '.repeat(lead.length + actorW + 2 + mark.length);
    const body = wrap(clean(st.text) + (st.rule ? ` [${st.rule}]` : ''), Math.max(30, width - indent.length));
    const tone = paint[st.level ?? 'plain'];
    if (actor.length > actorW) {
      lines.push(`${lead}${actor}`);
      body.forEach((b, i) => lines.push(i === 0 ? ' '.repeat(lead.length + actorW + 2) + tone(mark + b) : tone(indent + b)));
    } else body.forEach((b, i) => lines.push(i === 0 ? `${lead}${actor.padEnd(actorW)}  ` + tone(mark + b) : tone(indent + b)));
  };

  const startup = t.steps.filter((s) => s.phase === 'startup');
  lines.push('');
  lines.push(bold('  Start-up:') + dim(' in order; each step begins when the one before allows it'));
  startup.forEach((st, i) => step(String(i + 1).padStart(2), st));
  const completion = t.steps.filter((s) => s.phase === 'completion');
  if (completion.length) {
    lines.push('');
    lines.push(bold('  When the work is done:'));
    completion.forEach((st) => step(' -', st));
  }
  const shutdown = t.steps.filter((s) => s.phase === 'shutdown');
  // a pod that is never created has no shutdown
  if (shutdown.length) {
    lines.push('');
    lines.push(bold('  Shutdown (on deletion):') + dim(' seconds after deletion; ~ = at the earliest'));
    const times = shutdown.map((s) => `${s.approx ? '~' : ''}${fmtSeconds(s.at ?? 0)}`);
    const timeW = Math.max(...times.map((x) => x.length));
    shutdown.forEach((st, i) => step(times[i]!.padStart(timeW), st));
  }
  const rest = t.findings.filter((f) => !f.shown);
  if (rest.length) {
    lines.push('');
    lines.push(bold('  Also found:'));
    for (const f of rest) {
      const level: StepLevel = f.severity === 'info' ? 'note' : 'hazard';
      const lead = `    ${MARK[level]} `;
      const body = `[${f.rule}] ${f.container ? `${clean(f.container)}: ` : ''}${clean(f.message)}`;
      wrap(body, width - lead.length).forEach((b, i) => lines.push(paint[level](`${i === 0 ? lead : ' '.repeat(lead.length)}${b}`)));
    }
  }
  return lines.join('\n') + '\n';
}

function describeInjection(i: Timeline['injection']): string {
  switch (i) {
    case 'injected':
      return 'as injected';
    case 'rendered':
      return 'as the injector renders it';
    case 'modelled':
      return "as the injector would render it (the audit's built-in model)";
    case 'none':
      return 'no sidecar';
    case 'failed':
      return 'the injector fails on it: istiod rejects the pod';
  }
}

// ---------------------------------------------------------------- SVG

/** XML text from user data: escaped, and without the characters XML 1.0 forbids. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const FONT = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
/**
 * Average advance of a character, in em, a little above what Helvetica/Arial/Liberation Sans and
 * DejaVu Sans give mixed text, so that estimated text never runs into what follows it.
 */
const EM = 0.56;
const textWidth = (s: string, size: number): number => s.length * size * EM;
function fit(s: string, width: number, size: number): string {
  const max = Math.floor(width / (size * EM));
  if (s.length <= max) return s;
  return max <= 1 ? '' : `${s.slice(0, max - 1)}…`;
}
function wrapPx(s: string, width: number, size: number): string[] {
  return wrap(s, Math.max(20, Math.floor(width / (size * EM))));
}
/** Text over bars and marker lines: a white halo keeps it readable. */
const HALO = 'paint-order="stroke" stroke="#ffffff" stroke-width="3" stroke-linejoin="round"';

const ROLE_COLOR: Record<Lane['role'], string> = { init: '#78909c', native: '#7e57c2', proxy: '#1e88e5', app: '#43a047' };
const ROLE_NAME: Record<Lane['role'], string> = { init: 'init container', native: 'native sidecar', proxy: 'istio-proxy', app: 'container' };
const RED = '#c62828';
const AMBER = '#ef6c00';
const GREEN = '#2e7d32';
const GREY = '#616161';
const LEVEL_COLOR: Record<StepLevel, string> = { hazard: RED, caution: AMBER, note: '#00838f' };

function idFor(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return `tl${(h >>> 0).toString(36)}`;
}

const n = (v: number): string => (Math.round(v * 10) / 10).toString();

/** Swimlanes: start-up order on the left (not to scale), shutdown in seconds on the right; hazards in red. */
export function renderTimelineSvg(t: Timeline): string {
  const id = idFor(t.workload);
  const W = 1180;
  const M = 18;
  const labelW = 176;
  const sx0 = M + labelW;
  const sW = 410;
  const gap = 36;
  const tx0 = sx0 + sW + gap;
  const tW = W - M - tx0;
  const rowH = 42;
  const o: string[] = [];
  const text = (x: number, y: number, s: string, attrs = ''): void => {
    o.push(`<text x="${n(x)}" y="${n(y)}"${attrs ? ' ' + attrs : ''}>${xmlText(s)}</text>`);
  };
  const rect = (x: number, y: number, w: number, h: number, attrs: string, title?: string): void => {
    const r = `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(w, 1.5))}" height="${n(h)}" ${attrs}`;
    o.push(title ? `${r}><title>${xmlText(title)}</title></rect>` : `${r}/>`);
  };

  // ---- header
  let y = 30;
  const head: string[] = [];
  head.push(`<text x="${M}" y="${y}" font-size="17" font-weight="bold">${xmlText(fit(t.workload, W - 2 * M, 17))}</text>`);
  y += 20;
  head.push(`<text x="${M}" y="${y}" font-size="12" fill="${GREY}">${xmlText(`Start-up and shutdown, ${describeInjection(t.injection)} · grace period ${fmtSeconds(t.grace)}${t.graceDefault ? ' (default)' : ''}`)}</text>`);
  y += 8;
  for (const s of t.summary) {
    y += 19;
    const color = s.level ? LEVEL_COLOR[s.level] : GREEN;
    const glyph = s.level === 'hazard' ? '✗' : s.level ? '!' : '✓';
    head.push(`<circle cx="${M + 7}" cy="${y - 4}" r="7" fill="${color}"/><text x="${M + 7}" y="${y}" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">${glyph}</text>`);
    const rule = s.rule ? `  [${s.rule}]` : '';
    head.push(`<text x="${M + 20}" y="${y}" font-size="13" fill="${s.level ? color : '#212121'}"${s.level === 'hazard' ? ' font-weight="bold"' : ''}>${xmlText(fit(s.text + rule, W - 2 * M - 20, 13))}</text>`);
  }
  o.push(...head);

  // ---- panel headings and marker bands
  y += 30;
  text(sx0, y, 'Start-up', 'font-size="13" font-weight="bold"');
  text(sx0 + textWidth('Start-up ', 13) + 4, y, 'in order, not to scale', `font-size="11" fill="${GREY}"`);
  text(tx0, y, 'Shutdown', 'font-size="13" font-weight="bold"');
  text(tx0 + textWidth('Shutdown ', 13) + 4, y, 'seconds after deletion', `font-size="11" fill="${GREY}"`);
  const band1 = y + 18;
  const band2 = y + 33;
  const top = y + 42;
  const lanes = t.lanes;
  const bottom = top + lanes.length * rowH;

  // ---- scales
  const slotEnd = Math.max(1, ...lanes.map((l) => Math.max(l.ready ?? 0, l.end ?? 0, l.start + 1))) + 0.6;
  const sx = (v: number): number => sx0 + (Math.min(v, slotEnd) / slotEnd) * sW;
  const horizon = niceCeil(Math.max(t.grace + MIN_KILL_WINDOW, t.end, 1) * 1.08);
  const tx = (v: number): number => tx0 + (Math.min(Math.max(v, 0), horizon) / horizon) * tW;

  // ---- defs: hatches for "never ends" and "waits for its turn"
  o.splice(
    0,
    0,
    `<defs><pattern id="${id}-never" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffcdd2"/><line x1="0" y1="0" x2="0" y2="6" stroke="${RED}" stroke-width="3"/></pattern>` +
      `<pattern id="${id}-wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9e9e9e" stroke-width="2"/></pattern>` +
      `<linearGradient id="${id}-unknown"><stop offset="0" stop-color="${ROLE_COLOR.proxy}" stop-opacity="0.05"/><stop offset="1" stop-color="${ROLE_COLOR.proxy}" stop-opacity="0.55"/></linearGradient></defs>`,
  );

  // ---- lanes (their labels are drawn after the marker lines, over them)
  const labels: (() => void)[] = [];
  lanes.forEach((l, i) => {
    const ly = top + i * rowH;
    if (i % 2 === 0) rect(M, ly, W - 2 * M, rowH, 'fill="#f5f7f9"');
    const color = ROLE_COLOR[l.role];
    const hazard = !!l.rules?.length;
    const stopHazard = !!l.stopRules?.length;
    o.push(`<rect x="${M}" y="${ly + 6}" width="4" height="${rowH - 12}" fill="${color}"/>`);
    o.push(`<text x="${M + 10}" y="${ly + 18}" font-size="12.5" font-weight="bold"${hazard || stopHazard ? ` fill="${RED}"` : ''}><title>${xmlText(l.name)}</title>${xmlText(fit(l.name, labelW - 16, 12.5))}</text>`);
    const roleText = l.runsAs ? `${l.role === 'proxy' ? 'proxy' : 'sidecar'}, ${l.runsAs}` : l.role === 'proxy' ? (l.native ? 'proxy, native sidecar' : 'proxy, classic sidecar') : l.role === 'init' ? 'init container' : l.role === 'native' ? 'native sidecar' : 'app container';
    text(M + 10, ly + 33, fit(roleText, labelW - 16, 10.5), `font-size="10.5" fill="${GREY}"`);

    // start-up
    const barY = ly + 7;
    const barH = 15;
    const labelY = ly + 35;
    let startLabel: string;
    let labelColor = '#37474f';
    if (l.neverStarts) {
      rect(sx(l.start), barY, sx0 + sW - sx(l.start), barH, `fill="none" stroke="#bdbdbd" stroke-dasharray="4 3"`);
      startLabel = 'never starts';
      labelColor = RED;
    } else {
      const gateEnd = l.blocks ? slotEnd : (l.ready ?? l.end ?? l.start);
      const runEnd = l.end ?? slotEnd;
      rect(sx(l.start), barY, sx(runEnd) - sx(l.start), barH, `rx="3" fill="${color}" fill-opacity="0.28"`);
      if (l.blocks) {
        rect(sx(l.start), barY, sx(gateEnd) - sx(l.start), barH, `rx="3" fill="url(#${id}-never)" stroke="${RED}"`, l.gateText);
        labelColor = RED;
      } else if (gateEnd > l.start) {
        rect(sx(l.start), barY, sx(gateEnd) - sx(l.start), barH, `rx="3" fill="${color}"${hazard ? ` stroke="${RED}" stroke-width="2"` : ''}`, l.gateText);
      }
      if (l.role === 'proxy' && t.proxyReady === undefined && !l.blocks) {
        // nothing waits for Envoy: its readiness comes at an unknown moment after the start
        rect(sx(l.start), barY, sx0 + sW - sx(l.start), barH, `rx="3" fill="url(#${id}-unknown)"`, 'Envoy ready: unknown, nothing waits for it');
      }
      startLabel = l.gateText ?? (l.role === 'app' ? 'starts' : 'starts; nothing waits for it');
      if (l.role === 'proxy' && t.proxyReady === undefined && !l.blocks && !l.gate) startLabel = 'starts; nothing waits for ready';
      if (l.role === 'app' && l.name === t.app && !l.gate) startLabel = 'starts, can send traffic';
      if (hazard) labelColor = RED;
    }
    labels.push(() => text(sx(l.start) + 2, labelY, fit(startLabel, sx0 + sW - sx(l.start) - 4, 10.5), `font-size="10.5" fill="${labelColor}" ${HALO}`));

    // shutdown
    if (l.sigterm !== undefined) {
      const exit = l.killed ? l.deadline! : (l.exit ?? l.sigterm);
      rect(tx(0), barY, tx(exit) - tx(0), barH, `rx="3" fill="${color}" fill-opacity="0.28"`);
      if (l.preStopEnd !== undefined) {
        if (l.preStopNever) rect(tx(0), barY, tx(l.preStopEnd) - tx(0), barH, `rx="3" fill="url(#${id}-never)" stroke="${RED}"`, `preStop ${l.preStop ?? ''}: never returns`);
        else if (l.preStopEnd > 0) rect(tx(0), barY, tx(l.preStopEnd) - tx(0), barH, `rx="3" fill="#fb8c00"${l.preStopEnd >= t.grace ? ` stroke="${RED}" stroke-width="2"` : ''}`, `preStop ${l.preStop ?? ''}`);
        else o.push(`<line x1="${n(tx(0))}" x2="${n(tx(0))}" y1="${barY}" y2="${barY + barH}" stroke="#fb8c00" stroke-width="3"><title>${xmlText(`preStop ${l.preStop ?? ''} (returns at once)`)}</title></line>`);
      }
      if (l.waitFrom !== undefined && l.sigterm > l.waitFrom) rect(tx(l.waitFrom), barY, tx(l.sigterm) - tx(l.waitFrom), barH, `fill="url(#${id}-wait)"`, 'waits for the main containers to exit');
      if (l.drain !== undefined) {
        const dEnd = l.killed ? l.deadline! : l.exit!;
        rect(tx(l.sigterm), barY, tx(dEnd) - tx(l.sigterm), barH, `rx="3" fill="${color}"${l.killed ? ` stroke="${RED}" stroke-width="2"` : ''}`, `Envoy drains ${fmtSeconds(l.drain)}`);
      }
      // SIGTERM: a black triangle above the bar
      const sX = tx(l.sigterm);
      o.push(`<path d="M${n(sX - 4)},${barY - 5} L${n(sX + 4)},${barY - 5} L${n(sX)},${barY + 1} Z" fill="#212121"><title>SIGTERM at ${xmlText(fmtSeconds(l.sigterm))}</title></path>`);
      o.push(`<line x1="${n(sX)}" x2="${n(sX)}" y1="${barY}" y2="${barY + barH}" stroke="#212121" stroke-width="1.5"/>`);
      if (l.killed) {
        const kX = tx(l.deadline!);
        o.push(`<path d="M${n(kX - 5)},${barY + 2} L${n(kX + 5)},${barY + barH - 2} M${n(kX + 5)},${barY + 2} L${n(kX - 5)},${barY + barH - 2}" stroke="${RED}" stroke-width="2.5"><title>SIGKILL at ${xmlText(fmtSeconds(l.deadline!))}</title></path>`);
      }
      const parts: string[] = [];
      if (l.preStopEnd !== undefined) parts.push(l.preStopNever ? 'preStop never returns' : l.preStopEnd > 0 ? `preStop ≥${fmtSeconds(l.preStopEnd)}` : 'preStop');
      if (l.waitFrom !== undefined) parts.push('waits for main containers');
      parts.push(`SIGTERM ${fmtSeconds(l.sigterm)}`);
      if (l.drain !== undefined) parts.push(`drains ${fmtSeconds(l.drain)}`);
      parts.push(l.killed ? `SIGKILL ${fmtSeconds(l.deadline!)}` : `exits ${l.role === 'app' || l.role === 'native' || l.drain === undefined ? '~' : ''}${fmtSeconds(l.exit ?? l.sigterm)}`);
      const bad = l.killed || l.preStopNever || stopHazard;
      labels.push(() => text(tx(0) + 2, labelY, fit(parts.join(' · '), tW - 4, 10.5), `font-size="10.5" fill="${bad ? RED : '#37474f'}" ${HALO}`));
    } else if (l.end !== undefined || l.neverStarts || l.blocks) {
      text(tx(0) + 2, labelY - 12, l.end !== undefined ? 'already exited' : 'not running', `font-size="10.5" fill="#9e9e9e"`);
    }
  });

  // ---- start-up markers: proxy ready, first traffic
  if (t.proxyReady !== undefined) {
    const x = sx(t.proxyReady);
    o.push(`<line x1="${n(x)}" x2="${n(x)}" y1="${band2 + 3}" y2="${bottom}" stroke="${GREEN}" stroke-width="1.5"/>`);
  }
  if (t.appStart !== undefined) {
    const ok = t.proxyReadyAtAppStart !== false;
    const c = ok ? GREEN : t.appWaitsItself ? AMBER : RED;
    const x = sx(t.appStart);
    o.push(`<line x1="${n(x)}" x2="${n(x)}" y1="${band1 + 3}" y2="${bottom}" stroke="${c}" stroke-width="2" stroke-dasharray="5 3"/>`);
    // the rule id is in the headline and the hazard list; the marker stays short enough to read
    const label = t.proxyReadyAtAppStart === undefined ? `${t.app ?? 'app'} can send traffic` : ok ? `${t.app ?? 'app'} can send traffic, proxy ready` : t.appWaitsItself ? `${t.app ?? 'app'} starts, waits for the proxy itself` : `${t.app ?? 'app'} can send traffic, proxy NOT ready`;
    placeLabel(o, x, band1, label, sx0, sx0 + sW, c, true);
  }
  if (t.proxyReady !== undefined && t.proxyReady !== t.appStart) placeLabel(o, sx(t.proxyReady), band2, 'proxy ready', sx0, sx0 + sW, GREEN, false);

  // ---- shutdown: grace period, the 2 s window, axis; then the lane labels over the lines
  const gx = tx(t.grace);
  if (t.lanes.some((l) => (l.deadline ?? 0) > t.grace)) rect(gx, top, tx(t.grace + MIN_KILL_WINDOW) - gx, bottom - top, `fill="${RED}" fill-opacity="0.08"`, `the kubelet's ${MIN_KILL_WINDOW}s minimum window after a late SIGTERM`);
  o.push(`<line x1="${n(gx)}" x2="${n(gx)}" y1="${band1 + 3}" y2="${bottom}" stroke="${RED}" stroke-width="1.5" stroke-dasharray="6 3"/>`);
  placeLabel(o, gx, band1, `grace period ${fmtSeconds(t.grace)}`, tx0, tx0 + tW, RED, false);
  o.push(`<line x1="${n(tx0)}" x2="${n(tx0 + tW)}" y1="${bottom}" y2="${bottom}" stroke="#9e9e9e"/>`);
  const step = tickStep(horizon);
  for (let v = 0; v <= horizon + 1e-9; v += step) {
    const x = tx(v);
    o.push(`<line x1="${n(x)}" x2="${n(x)}" y1="${bottom}" y2="${bottom + 4}" stroke="#9e9e9e"/>`);
    text(x, bottom + 16, `${v}s`, `font-size="10" fill="${GREY}" text-anchor="middle"`);
  }
  o.push(`<line x1="${n(sx0)}" x2="${n(sx0 + sW)}" y1="${bottom}" y2="${bottom}" stroke="#9e9e9e"/>`);
  for (const draw of labels) draw();
  text(sx0, bottom + 16, 'pod scheduled', `font-size="10" fill="${GREY}"`);
  text(sx0 + sW, bottom + 16, 'running', `font-size="10" fill="${GREY}" text-anchor="end"`);

  // ---- legend
  y = bottom + 40;
  const legend: [string, string][] = [
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.init}"/>`, 'init container'],
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.native}"/>`, 'native sidecar'],
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.proxy}"/>`, 'istio-proxy'],
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.app}"/>`, 'app container'],
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.proxy}" fill-opacity="0.28"/>`, 'running'],
    [`<rect width="14" height="10" rx="2" fill="${ROLE_COLOR.proxy}"/>`, 'holds the next start / Envoy drains'],
    [`<rect width="14" height="10" rx="2" fill="#fb8c00"/>`, 'preStop'],
    [`<rect width="14" height="10" fill="url(#${id}-wait)"/>`, 'waits for its turn'],
    [`<rect width="14" height="10" fill="url(#${id}-never)" stroke="${RED}"/>`, 'never ends'],
    [`<path d="M3,0 L11,0 L7,6 Z" fill="#212121"/>`, 'SIGTERM'],
    [`<path d="M2,0 L12,10 M12,0 L2,10" stroke="${RED}" stroke-width="2.5"/>`, 'SIGKILL'],
    [`<line x1="7" x2="7" y1="-2" y2="12" stroke="${RED}" stroke-width="1.5" stroke-dasharray="3 2"/>`, 'grace period'],
  ];
  let lx = M;
  for (const [sym, label] of legend) {
    const w = 20 + textWidth(label, 10.5) + 16;
    if (lx + w > W - M) {
      lx = M;
      y += 18;
    }
    o.push(`<g transform="translate(${n(lx)},${y - 9})">${sym}</g>`);
    text(lx + 20, y, label, `font-size="10.5" fill="#424242"`);
    lx += w;
  }

  // ---- hazards and notes, with rule ids
  const items: { color: string; head: string; body: string }[] = [];
  for (const f of t.findings) {
    const color = f.severity === 'info' ? LEVEL_COLOR.note : RED;
    items.push({ color, head: `${f.rule} (${f.severity})`, body: `${f.container ? `${f.container}: ` : ''}${f.message}` });
  }
  for (const st of t.steps) {
    if (st.level === 'caution') items.push({ color: AMBER, head: 'caution', body: `${st.actor}: ${st.text}` });
  }
  if (items.length) {
    y += 30;
    text(M, y, 'Hazards and notes', 'font-size="13" font-weight="bold"');
    const headW = Math.max(...items.map((it) => textWidth(it.head, 11.5))) + 10;
    for (const it of items) {
      const lines = wrapPx(it.body, W - 2 * M - headW - 16, 11.5);
      y += 18;
      o.push(`<circle cx="${M + 5}" cy="${y - 4}" r="4" fill="${it.color}"/>`);
      text(M + 14, y, it.head, `font-size="11.5" font-weight="bold" fill="${it.color}"`);
      lines.forEach((line, k) => text(M + 14 + headW, y + k * 15, line, `font-size="11.5" fill="#212121"`));
      y += (lines.length - 1) * 15;
    }
  }
  const H = Math.ceil(y + 22);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}" font-size="12" fill="#212121">\n` +
    `<title>${xmlText(`${t.workload}: start-up and shutdown`)}</title>\n` +
    `<rect width="${W}" height="${H}" fill="#ffffff"/>\n` +
    o.join('\n') +
    '\n</svg>\n'
  );
}

/** A marker's label in its band: right of the line, or left of it when it would leave the panel. */
function placeLabel(o: string[], x: number, y: number, label: string, lo: number, hi: number, color: string, bold: boolean): void {
  const size = 11;
  const w = textWidth(label, size);
  let anchor = 'start';
  let at = x + 4;
  if (at + w > hi) {
    if (x - 4 - w >= lo) {
      anchor = 'end';
      at = x - 4;
    } else {
      at = Math.max(lo, hi - w);
    }
  }
  o.push(`<text x="${n(at)}" y="${n(y)}" font-size="${size}" fill="${color}"${bold ? ' font-weight="bold"' : ''}${anchor === 'end' ? ' text-anchor="end"' : ''}>${xmlText(fit(label, hi - lo, size))}</text>`);
}

function niceCeil(v: number): number {
  const step = tickStep(v);
  return Math.ceil(v / step) * step;
}

function tickStep(v: number): number {
  for (const s of [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]) if (v / s <= 10) return s;
  return Math.ceil(v / 10 / 3600) * 3600;
}
