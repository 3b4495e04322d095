// The playground's starting points: the seed stories this project exists for, and the bundled examples,
// each a page state made from the repository's own files (templates/, values/, examples/). The page gets
// those files' texts at build time; the tests and the README's links read them from disk.

import { defaultState, emptySetup, type PlaygroundState, type Setup } from './state.js';

/** A repository file's text, by its path from the repository's root. */
export type ReadFile = (path: string) => string;

export interface Preset {
  id: string;
  title: string;
  /** What the page shows, one sentence. */
  story: string;
  state: PlaygroundState;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Maps merged key by key, as Helm merges values files; anything else replaced. */
function merge(a: Json, b: Json): Json {
  if (typeof a !== 'object' || a === null || Array.isArray(a) || typeof b !== 'object' || b === null || Array.isArray(b)) return b;
  const out: { [k: string]: Json } = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k]!, v) : v;
  return out;
}

/** values/ files merged in order, as one values pane. */
function values(read: ReadFile, ...files: string[]): string {
  return JSON.stringify(files.map((f) => JSON.parse(read(f)) as Json).reduce(merge), null, 2) + '\n';
}

function setup(s: Partial<Setup>): Setup {
  return { ...emptySetup(), ...s };
}

function state(s: Partial<PlaygroundState>): PlaygroundState {
  return { ...defaultState(), ...s };
}

/** Every starting point; the first five are the seed stories the README links to. */
export function presets(read: ReadFile): Preset[] {
  const hold17 = read('templates/hold-1.7.tmpl');
  const hold18 = read('templates/hold-1.8.tmpl');
  const lifecycle15 = read('templates/lifecycle-1.5.tmpl');
  const deployment = read('examples/deployment.yaml');
  // each story names the release it tells of (the release field), and the values its proxy image: the
  // audit reads the release of a pod from its image
  const tag = (t: string) => `global.tag=${t}\n`;
  return [
    {
      id: 'lifecycle-drops-hold',
      title: 'Istio 1.7: a custom lifecycle drops the hold',
      story:
        "holdApplicationUntilProxyStarts is on, but the values' own proxy lifecycle wins the template's if/else-if: the proxy moves first without its `pilot-agent wait` (setup B: the fix, a lifecycle that brings the wait).",
      state: state({
        a: setup({ istioVersion: '1.7', injector: hold17, values: values(read, 'values/defaults.json', 'values/lifecycle-drain.json'), set: 'global.proxy.holdApplicationUntilProxyStarts=true\n' }),
        b: setup({ istioVersion: '1.7', injector: hold17, values: values(read, 'values/defaults.json', 'values/lifecycle-with-wait.json') }),
        workloads: deployment,
        tab: 'findings',
      }),
    },
    {
      id: 'prestop-never-ends',
      title: 'Istio 1.5: a preStop drain that never ends',
      story:
        'The preStop loop waits until nothing but envoy listens, but pilot-agent listens too: every pod waits its whole terminationGracePeriodSeconds (setup B: the loop that leaves pilot-agent out too).',
      state: state({
        a: setup({ istioVersion: '1.5', injector: lifecycle15, values: values(read, 'values/defaults.json', 'values/lifecycle-drain-envoy-only.json') }),
        b: setup({ istioVersion: '1.5', injector: lifecycle15, values: values(read, 'values/defaults.json', 'values/lifecycle-drain.json') }),
        workloads: deployment,
        tab: 'timeline',
      }),
    },
    {
      id: 'hold-mesh-annotation',
      title: 'Istio 1.8+: hold mesh-wide, or per pod by annotation',
      story:
        "Setup A holds every application through the mesh config's defaultConfig; setup B holds none mesh-wide, and only the pod whose proxy.istio.io/config annotation asks keeps its proxy first.",
      state: state({
        a: setup({ istioVersion: '1.8', injector: hold18, values: values(read, 'values/defaults.json'), set: tag('1.8.0'), mesh: read('values/mesh-hold.yaml') }),
        b: setup({ istioVersion: '1.8', injector: hold18, values: values(read, 'values/defaults.json'), set: tag('1.8.0'), mesh: read('values/mesh-default.yaml') }),
        workloads: `${deployment.trimEnd()}\n---\n${read('examples/nginx-hold-annotation.yaml')}`,
        tab: 'diff',
      }),
    },
    {
      id: 'native-sidecar-job',
      title: 'Kubernetes 1.33: native sidecars let a Job complete',
      story: 'With native sidecars on (Istio 1.27+ on Kubernetes 1.33+), the proxy is an init container with restartPolicy: Always, so the Job completes when busybox exits.',
      state: state({
        a: setup({ istioVersion: '1.28', injector: read('templates/native-sidecar.tmpl'), values: values(read, 'values/defaults.json'), set: tag('1.28.0') }),
        workloads: read('examples/job.yaml'),
        kubeVersion: '1.33',
        tab: 'timeline',
      }),
    },
    {
      id: 'proxy-first-wait',
      title: 'Istio 1.7: hold puts the proxy first with a postStart wait',
      story: 'holdApplicationUntilProxyStarts moves istio-proxy to the front and blocks its postStart on `pilot-agent wait`, so the application starts after the proxy is ready (setup B: without the hold).',
      state: state({
        a: setup({ istioVersion: '1.7', injector: hold17, values: values(read, 'values/defaults.json', 'values/hold-on.json') }),
        b: setup({ istioVersion: '1.7', injector: hold17, values: values(read, 'values/defaults.json') }),
        workloads: deployment,
        tab: 'merged',
      }),
    },
    {
      id: 'bundled-configmap',
      title: 'The bundled injector and mesh ConfigMaps (examples/)',
      story: 'An istio-sidecar-injector ConfigMap export with its mesh ConfigMap, as `kubectl get cm -o yaml` gives them.',
      state: state({
        a: setup({ injector: read('examples/istio-sidecar-injector.yaml'), mesh: read('examples/istio-mesh.yaml') }),
        workloads: deployment,
      }),
    },
    {
      id: 'go-template',
      title: 'A Go template with Sprig functions (template mode)',
      story: 'Any Go text/template with Go, Sprig, Helm or Istio functions over YAML data, as `sidecar-render template` renders it.',
      state: state({
        mode: 'template',
        template: { text: '{{- range .items }}\n- {{ . | upper | quote }}\n{{- end }}\n', data: read('examples/page.yaml'), funcs: 'sprig', missingkey: 'default' },
        tab: 'template',
      }),
    },
  ];
}

/** The files presets read, for the page's build. */
export const PRESET_FILES = [
  'templates/hold-1.7.tmpl',
  'templates/hold-1.8.tmpl',
  'templates/lifecycle-1.5.tmpl',
  'templates/native-sidecar.tmpl',
  'values/defaults.json',
  'values/lifecycle-drain.json',
  'values/lifecycle-drain-envoy-only.json',
  'values/lifecycle-with-wait.json',
  'values/hold-on.json',
  'values/mesh-hold.yaml',
  'values/mesh-default.yaml',
  'examples/deployment.yaml',
  'examples/nginx-hold-annotation.yaml',
  'examples/job.yaml',
  'examples/istio-sidecar-injector.yaml',
  'examples/istio-mesh.yaml',
  'examples/page.yaml',
] as const;
