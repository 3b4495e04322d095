// The playground page: panes for the inputs, tabs for what the library makes of them, the state in the
// link's fragment. Rendering runs in a Web Worker (worker.ts), one render at a time with the latest
// inputs; a render past the time limit ends the worker, and the page says so and starts a fresh one.

import files from 'playground:files';
import { PaneEditor, type Mark } from './editor.js';
import type { Boot } from './boot.js';
import { presets } from '../../src/playground/presets.js';
import type { Pane, PlaygroundResult, Place, Problem, Side } from '../../src/playground/run.js';
import { MAX_TIME_LIMIT_S, RELEASES, decodeState, defaultState, encodeState, stateOf, type PlaygroundState, type Setup } from '../../src/playground/state.js';

const $ = <T extends HTMLElement = HTMLElement>(sel: string): T => {
  const el = document.querySelector<T>(sel);
  if (!el) throw new Error(`the page has no ${sel}`);
  return el;
};
const $$ = <T extends HTMLElement = HTMLElement>(sel: string): T[] => [...document.querySelectorAll<T>(sel)];
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

performance.mark('playground:main');
const PRESETS = presets((path) => {
  const text = (files as Record<string, string>)[path];
  if (text === undefined) throw new Error(`${path} is not bundled`);
  return text;
});

/** Time the page gives a render beyond its own limit before it ends the worker. */
const WATCHDOG_GRACE_MS = 2000;
/** A render older than this is ended when the inputs change again (a fresh worker costs less than waiting). */
const STALE_RENDER_MS = 1500;
const SETUP_PANES = ['injector', 'values', 'set', 'mesh'] as const;
type SetupPane = (typeof SETUP_PANES)[number];

let state: PlaygroundState = defaultState();
let side: Side = 'a';
let last: PlaygroundResult | undefined;
const firstRender = { done: false };

// ---------- editors ----------

const editors = new Map<Pane, PaneEditor>();
for (const pane of $$('.pane')) {
  const name = pane.dataset['pane'] as Pane;
  const lang = name === 'set' || name === 'template' ? 'text' : 'yaml';
  editors.set(name, new PaneEditor(pane.querySelector<HTMLElement>('.editor')!, lang, (text) => edited(name, text), pane.querySelector('h2')!.firstChild!.textContent!.trim()));
}

performance.mark('playground:editors');

function setupOf(s: Side): Setup {
  if (s === 'b') {
    state.b ??= structuredClone(state.a);
    return state.b;
  }
  return state.a;
}

function edited(pane: Pane, text: string): void {
  if ((SETUP_PANES as readonly string[]).includes(pane)) setupOf(side)[pane as SetupPane] = text;
  else if (pane === 'workloads') state.workloads = text;
  else if (pane === 'template') state.template.text = text;
  else if (pane === 'data') state.template.data = text;
  changed();
}

// ---------- the state shown ----------

function show(): void {
  document.body.className = state.mode;
  for (const b of $$<HTMLButtonElement>('[data-mode]')) b.setAttribute('aria-pressed', String(b.dataset['mode'] === state.mode));
  if (side === 'b' && !state.b) side = 'a';
  for (const b of $$<HTMLButtonElement>('[data-side]')) {
    b.setAttribute('aria-pressed', String(b.dataset['side'] === side));
    b.disabled = b.dataset['side'] === 'b' && !state.b;
  }
  $('#add-b').hidden = !!state.b;
  $('#drop-b').hidden = !state.b;
  const s = side === 'b' ? state.b! : state.a;
  for (const p of SETUP_PANES) editors.get(p)!.set(s[p]);
  editors.get('workloads')!.set(state.workloads);
  editors.get('template')!.set(state.template.text);
  editors.get('data')!.set(state.template.data);
  $<HTMLSelectElement>('#istio-version').value = s.istioVersion;
  $<HTMLSelectElement>('#values-mode').value = s.valuesMode;
  $<HTMLInputElement>('#kube-version').value = state.kubeVersion;
  $<HTMLSelectElement>('#native-sidecars').value = state.nativeSidecars;
  $<HTMLSelectElement>('#render-mode').value = state.renderMode;
  $<HTMLInputElement>('#time-limit').value = String(state.timeLimit);
  $<HTMLInputElement>('#time-limit-t').value = String(state.timeLimit);
  $<HTMLSelectElement>('#funcs').value = state.template.funcs;
  $<HTMLSelectElement>('#missingkey').value = state.template.missingkey;
  showTab(state.tab);
  if (last) markPanes(last);
}

function showTab(tab: string): void {
  const visible = $$<HTMLButtonElement>('[data-tab]').filter((b) => getComputedStyle(b).display !== 'none');
  if (!visible.some((b) => b.dataset['tab'] === tab)) tab = visible[0]?.dataset['tab'] ?? 'template';
  state.tab = tab;
  for (const b of $$<HTMLButtonElement>('[data-tab]')) b.setAttribute('aria-selected', String(b.dataset['tab'] === tab));
  for (const p of $$('[data-panel]')) p.hidden = p.dataset['panel'] !== tab;
}

// ---------- rendering in the worker ----------

class Runner {
  private worker: Worker | undefined;
  private busy: { id: number; timer: number; limit: number; since: number } | undefined;
  private pending: PlaygroundState | undefined;
  private seq = 0;

  constructor(private readonly done: (r: PlaygroundResult) => void) {}

  run(s: PlaygroundState): void {
    this.pending = structuredClone(s);
    // a render of inputs that have changed since, running for a while: end it rather than wait for it
    if (this.busy && performance.now() - this.busy.since > STALE_RENDER_MS) this.restart();
    if (!this.busy) this.next();
    setStatus('rendering…', true);
  }

  private restart(): void {
    if (this.busy) clearTimeout(this.busy.timer);
    this.busy = undefined;
    this.worker?.terminate();
    this.worker = undefined;
  }

  /** The worker boot.ts started, rendering the link's state as request 0 when it holds one. */
  adopt(boot: Boot | undefined): void {
    if (!boot) {
      this.worker = this.start();
      return;
    }
    this.worker = this.start(boot.worker);
    if (boot.fragment !== undefined) {
      this.busy = { id: 0, timer: this.watchdog(MAX_TIME_LIMIT_S), limit: MAX_TIME_LIMIT_S, since: performance.now() };
    }
    for (const e of boot.early) this.worker.onmessage!(e);
  }

  /** The boot render's state is known now: hold it to that state's time limit. */
  limitBoot(limit: number): void {
    if (this.busy?.id !== 0) return;
    clearTimeout(this.busy.timer);
    this.busy = { ...this.busy, timer: this.watchdog(limit), limit };
  }

  private watchdog(limit: number): number {
    return window.setTimeout(() => this.fail(`stopped: the render did not finish within the time limit of ${limit} s, so its worker was ended (a template that never ends?). Change the inputs, or raise the time limit, to render again.`), limit * 1000 + WATCHDOG_GRACE_MS);
  }

  /** Whether the worker is already rendering this fragment, which boot.ts gave it. */
  rendering(fragment: string, boot: Boot | undefined): boolean {
    return this.busy?.id === 0 && boot?.fragment === fragment;
  }

  private start(given?: Worker): Worker {
    const w = given ?? new Worker('worker.js');
    w.onmessage = (e: MessageEvent<{ id?: number; result?: PlaygroundResult }>) => {
      if (e.data.id === undefined || e.data.id !== this.busy?.id) return;
      // the pods first; the audit and the diff follow in the same render
      if (e.data.result!.partial) {
        if (!this.pending) this.done(e.data.result!);
        return;
      }
      clearTimeout(this.busy.timer);
      this.busy = undefined;
      this.done(e.data.result!);
      this.next();
    };
    w.onerror = (e) => {
      e.preventDefault();
      this.fail(`the worker failed: ${e.message || 'out of memory?'}`);
    };
    return w;
  }

  private next(): void {
    const s = this.pending;
    if (!s) return;
    this.pending = undefined;
    this.worker ??= this.start();
    const id = ++this.seq;
    this.busy = { id, timer: this.watchdog(s.timeLimit), limit: s.timeLimit, since: performance.now() };
    this.worker.postMessage({ id, state: s });
  }

  /** End the worker (a render that never ends, a crash): the page says why; the next render starts afresh. */
  private fail(message: string): void {
    this.restart();
    this.done({ mode: state.mode, error: { message }, templateOutput: '', merged: '', workloads: [], messages: [], findings: [], timelines: [], ms: 0 });
    this.next();
  }
}

const boot = (window as unknown as { playgroundBoot?: Boot }).playgroundBoot;
const runner = new Runner(rendered);
runner.adopt(boot);

function setStatus(text: string, busy = false): void {
  const s = $('#status');
  s.textContent = text;
  s.classList.toggle('busy', busy);
}

let timer: number | undefined;
/** An input changed: render again and update the link, once typing pauses. */
function changed(delay = 250): void {
  clearTimeout(timer);
  timer = window.setTimeout(() => {
    runner.run(state);
    void saveLink();
  }, delay);
}

/** Longer links than this are not written: browsers refuse URLs of a few MB, and such a link is no way to share. */
const MAX_LINK_CHARS = 1_000_000;
let linkProblem = '';

async function saveLink(): Promise<void> {
  const f = await encodeState(state);
  linkProblem = f.length > MAX_LINK_CHARS ? `the inputs are too large for a link (${(f.length / 1e6).toFixed(1)} MB compressed): share the files instead` : '';
  try {
    history.replaceState(null, '', linkProblem ? location.pathname : `#${f}`);
  } catch (e) {
    linkProblem = `the link could not be written: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (linkProblem) setStatus(linkProblem);
}

// ---------- results ----------

function yamlHtml(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const m = /^(\s*(?:- )*)([^\s#'"][^:#]*?)(:(?=\s|$))(.*)$/.exec(line);
    if (/^\s*#/.test(line)) frag.append(el('span', { className: 'c' }, line));
    else if (m) frag.append(m[1]!, el('span', { className: 'k' }, m[2]!), m[3]!, m[4]!);
    else frag.append(line);
    if (i < lines.length - 1) frag.append('\n');
  });
  return frag;
}

function placeText(p: Place): string {
  const name = { injector: 'injector', values: 'values', set: '--set lines', mesh: 'mesh config', workloads: 'workloads', template: 'template', data: 'data' }[p.pane];
  return `${p.pane === 'workloads' || state.mode === 'template' ? '' : `setup ${p.side.toUpperCase()}, `}${name}, line ${p.line}`;
}

/** Open a pane at a line: switch to its setup, scroll the pane into view, put the cursor there. */
function jump(p: Place): void {
  if ((SETUP_PANES as readonly string[]).includes(p.pane) && p.side !== side && (p.side === 'a' || state.b)) {
    side = p.side;
    show();
  }
  const pane = $(`.pane[data-pane="${p.pane}"]`);
  pane.scrollIntoView({ block: 'nearest' });
  pane.classList.add('flash');
  setTimeout(() => pane.classList.remove('flash'), 900);
  editors.get(p.pane)!.goTo(p.line, p.col);
}

function placeButton(p: Place): HTMLButtonElement {
  const b = el('button', { type: 'button', className: 'loc', textContent: placeText(p) });
  b.dataset['line'] = String(p.line);
  b.dataset['pane'] = p.pane;
  b.dataset['side'] = p.side;
  b.addEventListener('click', () => jump(p));
  return b;
}

/** Every problem and finding that names a line, as marks in its pane (of the setup shown). */
function markPanes(r: PlaygroundResult): void {
  const marks = new Map<Pane, Mark[]>();
  const add = (p: Place | undefined, message: string, severity: Mark['severity']) => {
    if (!p) return;
    if ((SETUP_PANES as readonly string[]).includes(p.pane) && p.side !== side) return;
    const list = marks.get(p.pane) ?? [];
    list.push({ line: p.line, col: p.col, message, severity });
    marks.set(p.pane, list);
  };
  const problems: Problem[] = [...(r.error ? [r.error] : []), ...r.messages, ...(r.auditError ? [r.auditError] : []), ...(r.diff?.error ? [r.diff.error] : [])];
  for (const p of problems) add(p.at, p.message, /warning/.test(p.message) ? 'warning' : 'error');
  for (const f of r.findings) add(f.at, `${f.rule}: ${f.message}`, f.severity);
  for (const [pane, ed] of editors) ed.mark(marks.get(pane) ?? []);
}

function rendered(r: PlaygroundResult): void {
  last = r;
  const problem = $('#problem');
  problem.replaceChildren();
  problem.hidden = !r.error;
  if (r.error) {
    problem.append(r.error.message);
    if (r.error.at) problem.append(placeButton(r.error.at));
  }
  $('#out-template').replaceChildren(r.mode === 'inject' ? yamlHtml(r.templateOutput) : r.templateOutput);
  // merged pod: the containers in the order the kubelet starts them
  const order = $('#order');
  order.replaceChildren();
  for (const w of r.workloads) {
    const line = el('div');
    line.append(el('b', {}, w.label), ': ');
    if (w.error) line.append(`failed: ${w.error}`);
    else if (!w.injected) line.append(`not injected (${w.reason ?? ''})`);
    else line.append(`start order ${(w.order ?? []).join(' → ')}; hold ${w.hold ? 'on' : 'off'}; native sidecar ${w.native ? 'yes' : 'no'}`);
    order.append(line);
  }
  $('#out-merged').replaceChildren(yamlHtml(r.merged));
  // findings
  const list = $('#out-findings');
  list.replaceChildren();
  if (r.partial) list.append(el('li', { className: 'none' }, 'auditing…'));
  else if (r.auditError) list.append(el('li', { className: 'none' }, r.auditError.message));
  else if (r.findings.length === 0 && r.mode === 'inject' && !r.error) list.append(el('li', { className: 'none' }, 'No findings: nothing the audit knows goes wrong at start-up or shutdown.'));
  for (const f of r.findings) {
    const li = el('li', { className: `finding ${f.severity}` });
    li.dataset['rule'] = f.rule;
    li.append(el('span', { className: `sev ${f.severity}` }, f.severity), el('span', { className: 'rule' }, f.rule), ` ${f.workload}${f.container ? ` [${f.container}]` : ''} `);
    if (f.at) li.append(placeButton(f.at));
    else li.append(el('span', { className: 'loc' }, f.location));
    li.append(el('div', { className: 'finding-msg' }, f.message), el('div', { className: 'fix' }, `Fix: ${f.fix}`));
    list.append(li);
  }
  $('#finding-count').textContent = r.mode === 'inject' && !r.error && !r.auditError && !r.partial ? `(${r.findings.length})` : '';
  // timelines: the CLI's SVG, shown as an image (its text stays text, never markup of the page)
  const tl = $('#out-timeline');
  tl.replaceChildren();
  if (r.timelines.length === 0) tl.append(el('div', { className: 'empty' }, r.partial ? 'auditing…' : (r.auditError?.message ?? 'No timeline.')));
  for (const t of r.timelines) {
    const box = el('div', { className: 'tl' });
    box.append(el('h3', {}, t.workload), el('ul', {}, ...t.summary.map((s) => el('li', {}, s))));
    const img = el('img', { alt: `start-up and shutdown of ${t.workload}`, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(t.svg)}` });
    box.append(img, el('details', {}, el('summary', {}, 'as text'), el('pre', {}, t.text)));
    tl.append(box);
  }
  if (r.timelinesLeftOut) tl.append(el('div', { className: 'empty' }, `… and ${r.timelinesLeftOut} more workload${r.timelinesLeftOut === 1 ? '' : 's'}: the page draws the first ${r.timelines.length}.`));
  // diff
  const diff = $('#out-diff');
  diff.replaceChildren();
  if (r.partial && state.b) {
    diff.append(el('div', { className: 'empty' }, 'comparing A and B…'));
  } else if (!r.diff) {
    const add = el('button', { type: 'button', textContent: 'Compare with a setup B (a copy of A)' });
    add.addEventListener('click', addB);
    diff.append(el('div', { className: 'empty' }, 'Setup B is what setup A is compared with: ', add));
  } else if (r.diff.error) {
    diff.append(el('div', { className: 'empty' }, `The diff failed: ${r.diff.error.message}`));
  } else {
    if (r.diff.lifecycle.length > 0) {
      const table = el('table', { className: 'lifecycle' });
      table.append(el('tr', {}, el('th', {}, 'workload'), el('th', {}, 'start-up and shutdown'), el('th', {}, 'A'), el('th', {}, 'B')));
      for (const l of r.diff.lifecycle) table.append(el('tr', {}, el('td', {}, l.workload), el('td', {}, l.aspect), el('td', {}, l.from), el('td', {}, l.to)));
      diff.append(table);
    } else diff.append(el('div', { className: 'empty' }, 'Start-up and shutdown are the same in A and B.'));
    diff.append(el('pre', {}, r.diff.text));
  }
  // the run
  const log: string[] = [];
  if (r.assumptions) log.push(r.assumptions, '');
  for (const m of r.messages) log.push(m.message);
  if (r.error) log.push(r.error.message);
  log.push(`rendered in ${r.ms} ms`);
  $('#out-log').textContent = log.join('\n');
  markPanes(r);
  if (!firstRender.done) {
    firstRender.done = true;
    document.body.dataset['firstRenderMs'] = String(Math.round(performance.now()));
  }
  if (!r.partial && document.body.dataset['fullRenderMs'] === undefined) document.body.dataset['fullRenderMs'] = String(Math.round(performance.now()));
  if (r.partial) {
    setStatus(`rendered in ${r.ms} ms; auditing…`, true);
    return;
  }
  const fails = r.error ? 'failed' : `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`;
  setStatus(`${r.mode === 'inject' ? fails + ', ' : ''}rendered in ${r.ms} ms`);
  document.body.dataset['renders'] = String(Number(document.body.dataset['renders'] ?? '0') + 1);
}

// ---------- controls ----------

function addB(): void {
  state.b = structuredClone(state.a);
  side = 'b';
  show();
  changed(0);
}

function load(s: PlaygroundState, story = '', render = true): void {
  state = s;
  side = 'a';
  $('#story').textContent = story;
  show();
  if (render) changed(0);
}

for (const b of $$<HTMLButtonElement>('[data-mode]')) b.addEventListener('click', () => {
  state.mode = b.dataset['mode'] as PlaygroundState['mode'];
  show();
  changed(0);
});
for (const b of $$<HTMLButtonElement>('[data-side]')) b.addEventListener('click', () => {
  side = b.dataset['side'] as Side;
  show();
});
for (const b of $$<HTMLButtonElement>('[data-tab]')) b.addEventListener('click', () => {
  showTab(b.dataset['tab']!);
  void saveLink();
});
$('#add-b').addEventListener('click', addB);
$('#drop-b').addEventListener('click', () => {
  delete state.b;
  side = 'a';
  show();
  changed(0);
});

const bind = (sel: string, set: (v: string) => void) => $(sel).addEventListener('change', (e) => {
  set((e.target as HTMLInputElement).value);
  changed(0);
});
bind('#istio-version', (v) => (setupOf(side).istioVersion = v));
bind('#values-mode', (v) => (setupOf(side).valuesMode = v === 'replace' ? 'replace' : 'merge'));
bind('#kube-version', (v) => (state.kubeVersion = v.trim()));
bind('#native-sidecars', (v) => (state.nativeSidecars = stateOf({ nativeSidecars: v }).nativeSidecars));
bind('#render-mode', (v) => (state.renderMode = stateOf({ renderMode: v }).renderMode));
bind('#time-limit', (v) => (state.timeLimit = stateOf({ timeLimit: Number(v) }).timeLimit));
bind('#time-limit-t', (v) => (state.timeLimit = stateOf({ timeLimit: Number(v) }).timeLimit));
bind('#funcs', (v) => (state.template.funcs = stateOf({ template: { funcs: v } }).template.funcs));
bind('#missingkey', (v) => (state.template.missingkey = stateOf({ template: { missingkey: v } }).template.missingkey));

const releases = $<HTMLSelectElement>('#istio-version');
for (const r of RELEASES) releases.append(el('option', { value: r, textContent: r }));
const presetSelect = $<HTMLSelectElement>('#preset');
for (const p of PRESETS) presetSelect.append(el('option', { value: p.id, textContent: p.title }));
presetSelect.addEventListener('change', () => {
  const p = PRESETS.find((x) => x.id === presetSelect.value);
  if (p) load(structuredClone(p.state), `${p.title}: ${p.story}`);
  presetSelect.value = '';
});

$('#share').addEventListener('click', async () => {
  await saveLink();
  if (linkProblem) return;
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    setStatus(`link copied (${url.length} characters)`);
  } catch {
    window.prompt('The link to this case:', url);
  }
});

// ---------- dropped files ----------

/** The pane a dropped file belongs in, by what it holds. */
function paneFor(name: string, text: string): Pane {
  if (state.mode === 'template') return /\.(ya?ml|json)$/i.test(name) ? 'data' : 'template';
  if (/\.(tmpl|tpl|gotmpl)$/i.test(name)) return 'injector';
  if (/^kind:\s*ConfigMap\b/m.test(text) && /^\s+name:\s*istio-sidecar-injector/m.test(text)) return 'injector';
  if (/^kind:\s*ConfigMap\b/m.test(text) && /^\s+mesh:/m.test(text)) return 'mesh';
  if (/^kind:\s*IstioOperator\b/m.test(text)) return 'values';
  if (/^kind:/m.test(text)) return 'workloads';
  if (/^\s*(?:defaultConfig|meshNetworks|enableTracing|accessLogFile):/m.test(text)) return 'mesh';
  if (/^\s*(?:templates|template|policy|defaultTemplates):/m.test(text)) return 'injector';
  return 'values';
}

const drop = $('#drop');
let dragDepth = 0;
window.addEventListener('dragenter', (e) => {
  if (!e.dataTransfer?.types.includes('Files')) return;
  dragDepth++;
  drop.hidden = false;
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) drop.hidden = true;
});
window.addEventListener('dragover', (e) => {
  if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
});
window.addEventListener('drop', async (e) => {
  dragDepth = 0;
  drop.hidden = true;
  const list = [...(e.dataTransfer?.files ?? [])];
  if (list.length === 0) return;
  e.preventDefault();
  e.stopPropagation();
  const target = (e.target as HTMLElement).closest<HTMLElement>('.pane')?.dataset['pane'] as Pane | undefined;
  const got = new Map<Pane, string[]>();
  for (const f of list) {
    if (f.size > 8 * 1024 * 1024) {
      setStatus(`${f.name}: larger than 8 MiB, not loaded`);
      continue;
    }
    const text = await f.text();
    const pane = target ?? paneFor(f.name, text);
    got.set(pane, [...(got.get(pane) ?? []), text]);
  }
  for (const [pane, texts] of got) {
    const text = pane === 'workloads' ? texts.map((t) => t.trimEnd()).join('\n---\n') + '\n' : texts[texts.length - 1]!;
    editors.get(pane)!.set(text);
    edited(pane, text);
  }
  setStatus(`loaded ${list.map((f) => f.name).join(', ')}`);
}, true);

// ---------- start ----------

async function fromLink(): Promise<void> {
  if (location.hash.length > 1) {
    try {
      const fragment = location.hash;
      const s = await decodeState(fragment);
      // a starting point's link tells its story
      const same = (x: PlaygroundState) => JSON.stringify({ ...stateOf(JSON.parse(JSON.stringify(x))), tab: '' }) === JSON.stringify({ ...s, tab: '' });
      const p = PRESETS.find((x) => same(x.state));
      // the worker may be rendering this link already (boot.ts)
      const rendering = runner.rendering(fragment, boot);
      if (rendering) runner.limitBoot(s.timeLimit);
      load(s, p ? `${p.title}: ${p.story}` : '', !rendering);
      return;
    } catch (e) {
      load(structuredClone(PRESETS[0]!.state));
      $('#story').textContent = `${e instanceof Error ? e.message : String(e)}; opened a starting point instead.`;
      return;
    }
  }
  load(structuredClone(PRESETS[0]!.state), `${PRESETS[0]!.title}: ${PRESETS[0]!.story}`);
}

window.addEventListener('hashchange', () => {
  void (async () => {
    // the page's own replaceState does not fire this: only a link pasted or followed
    await fromLink();
  })();
});
void fromLink();
