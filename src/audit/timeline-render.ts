// Timelines for people: numbered steps in the terminal, and a self-contained SVG for reports.

import type { Lane, Timeline } from './timeline.js';

export function renderTimelineText(t: Timeline, opts: { color?: boolean } = {}): string {
  const warn = (s: string): string => (opts.color ? `\x1b[33m${s}\x1b[0m` : s);
  const bold = (s: string): string => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const lines: string[] = [bold(`${t.workload}`) + ` (${describeInjection(t.injection)})`];
  let n = 0;
  for (const phase of ['startup', 'completion', 'shutdown'] as const) {
    const mine = t.steps.filter((x) => x.phase === phase);
    if (phase === 'completion' && mine.length === 0) continue;
    lines.push(`  ${phase === 'startup' ? 'Start-up' : phase === 'completion' ? 'When the work is done' : 'Shutdown (on deletion)'}:`);
    for (const st of mine) {
      n++;
      const text = `${String(n).padStart(4)}. [${st.actor}] ${st.text}`;
      lines.push(st.warn ? warn(`${text}  <- hazard`) : text);
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
      return "as the injector would render it, by the audit's built-in model";
    case 'none':
      return 'no sidecar';
  }
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const COLORS: Record<Lane['role'], string> = { init: '#9e9e9e', native: '#5c6bc0', proxy: '#1e88e5', app: '#43a047' };

/** A swimlane chart: start-up order on the left (slots), shutdown on the right (seconds). */
export function renderTimelineSvg(t: Timeline): string {
  const laneH = 28;
  const labelW = 150;
  const startW = 360;
  const gap = 40;
  const stopW = 360;
  const top = 56;
  const stepsH = t.steps.length * 16 + 24;
  const height = top + t.lanes.length * laneH + 30 + stepsH;
  const width = labelW + startW + gap + stopW + 20;
  const slots = Math.max(1, ...t.lanes.map((l) => Math.max(l.end ?? 0, l.ready ?? 0, l.start + 1))) + 0.5;
  const sx = (v: number): number => labelW + (v / slots) * startW;
  const horizon = Math.max(t.grace, 1) * 1.1;
  const tx = (v: number): number => labelW + startW + gap + (Math.min(v, horizon) / horizon) * stopW;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<title>${esc(`${t.workload}: start-up and shutdown`)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  out.push(`<text x="10" y="20" font-size="14" font-weight="bold">${esc(t.workload)}</text>`);
  out.push(`<text x="${labelW}" y="44" fill="#555">Start-up (in order)</text>`);
  out.push(`<text x="${labelW + startW + gap}" y="44" fill="#555">Shutdown (seconds after deletion)</text>`);
  t.lanes.forEach((l, i) => {
    const y = top + i * laneH;
    const color = COLORS[l.role];
    out.push(`<text x="10" y="${y + 17}">${esc(l.name)}</text>`);
    // start-up
    const end = l.end ?? slots - 0.1;
    out.push(`<rect x="${sx(l.start).toFixed(1)}" y="${y + 4}" width="${Math.max(2, sx(end) - sx(l.start)).toFixed(1)}" height="${laneH - 10}" rx="3" fill="${color}" opacity="0.35"/>`);
    if (l.ready !== undefined) {
      out.push(`<rect x="${sx(l.start).toFixed(1)}" y="${y + 4}" width="${Math.max(2, sx(l.ready) - sx(l.start)).toFixed(1)}" height="${laneH - 10}" rx="3" fill="${color}" opacity="0.8"/>`);
      out.push(`<text x="${(sx(l.start) + 4).toFixed(1)}" y="${y + 17}" fill="#fff" font-size="10">${esc(l.gate ?? '')}</text>`);
    } else if (l.end !== undefined) {
      out.push(`<text x="${(sx(l.start) + 4).toFixed(1)}" y="${y + 17}" fill="#333" font-size="10">runs to completion</text>`);
    }
    // shutdown
    if (l.exit !== undefined || l.sigterm !== undefined) {
      const exit = l.exit ?? 0;
      if (l.role === 'native' || l.role === 'proxy' || l.role === 'app' || l.sigterm !== undefined) {
        out.push(`<rect x="${tx(0).toFixed(1)}" y="${y + 4}" width="${Math.max(2, tx(exit) - tx(0)).toFixed(1)}" height="${laneH - 10}" rx="3" fill="${color}" opacity="0.35"/>`);
      }
      if (l.preStopEnd !== undefined && l.preStopEnd > 0) {
        out.push(`<rect x="${tx(0).toFixed(1)}" y="${y + 4}" width="${Math.max(2, tx(l.preStopEnd) - tx(0)).toFixed(1)}" height="${laneH - 10}" rx="3" fill="#fb8c00" opacity="0.8"><title>preStop</title></rect>`);
      }
      if (l.sigterm !== undefined) out.push(`<line x1="${tx(l.sigterm).toFixed(1)}" x2="${tx(l.sigterm).toFixed(1)}" y1="${y + 2}" y2="${y + laneH - 4}" stroke="#000" stroke-width="2"><title>SIGTERM</title></line>`);
      if (l.killed) out.push(`<text x="${(tx(exit) + 3).toFixed(1)}" y="${y + 17}" fill="#c62828" font-size="10">SIGKILL</text>`);
    }
  });
  const lanesBottom = top + t.lanes.length * laneH;
  if (t.appStart !== undefined) {
    const x = sx(t.appStart).toFixed(1);
    const ok = t.proxyReadyAtAppStart !== false;
    out.push(`<line x1="${x}" x2="${x}" y1="${top - 4}" y2="${lanesBottom}" stroke="${ok ? '#2e7d32' : '#c62828'}" stroke-dasharray="4 3"/>`);
    out.push(`<text x="${x}" y="${lanesBottom + 14}" fill="${ok ? '#2e7d32' : '#c62828'}" font-size="10">app can send traffic${t.proxyReadyAtAppStart === undefined ? '' : ok ? ' (proxy ready)' : ' (proxy maybe not ready)'}</text>`);
  }
  const gx = tx(t.grace).toFixed(1);
  out.push(`<line x1="${gx}" x2="${gx}" y1="${top - 4}" y2="${lanesBottom}" stroke="#c62828" stroke-width="1.5"/>`);
  out.push(`<text x="${gx}" y="${lanesBottom + 14}" fill="#c62828" font-size="10" text-anchor="end">grace ${t.grace}s</text>`);
  let y = lanesBottom + 40;
  t.steps.forEach((st, i) => {
    out.push(`<text x="10" y="${y}" font-size="11"${st.warn ? ' fill="#c62828"' : ''}>${esc(`${i + 1}. [${st.actor}] ${st.text}`)}</text>`);
    y += 16;
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
