// The shell reader, one row per script: what a hook or entrypoint does about the proxy.

import { describe, expect, it } from 'vitest';
import { analyzeArgv, analyzeScript, sleepSeconds, syntaxError, type Listeners } from '../../src/audit/shell.js';

type Row = [script: string, expect: Partial<{ wait: string; never: boolean; seconds: number; udp: boolean; quits: boolean; polls: number; leading: number }>];

const rows: Row[] = [
  ["while [ $(netstat -plunt | grep tcp | grep -v envoy | wc -l | xargs) -ne 0 ]; do sleep 1; done", { never: true, udp: true }],
  ["while [ $(netstat -plnt | grep tcp | egrep -v 'envoy|pilot-agent' | wc -l) -ne 0 ]; do sleep 1; done", { never: false, udp: false }],
  ["while [ $(ss -ltnp | grep -v envoy | wc -l) -gt 0 ]; do sleep 1; done", { never: true }],
  ["until [ $(netstat -plnt | grep -v envoy | wc -l) -eq 0 ]; do sleep 1; done", { never: true }],
  ["while [ $(netstat -plnt | grep :8080 | grep -v envoy | wc -l) -ne 0 ]; do sleep 1; done", { never: false }],
  ['while [ $(ss -ltn | grep -v 15000 | wc -l) -gt 1 ]; do sleep 1; done', { never: true }],
  ['while [ $(ss -Hltn | grep -v 15000 | wc -l) -gt 0 ]; do sleep 1; done', { never: true }],
  ["while [ $(ss -Hltn | grep -v -E ':150(00|01|06|20|21|90)\\b' | wc -l) -gt 0 ]; do sleep 1; done", { never: false }],
  ["while [ $(ss -ltn | grep -v -E ':150(00|01|06|20|21|90)\\b' | wc -l) -gt 1 ]; do sleep 1; done", { never: false }],
  ["while [ $(ss -ltn | grep -v -E ':150(00|01|06|20|21|90)\\b' | wc -l) -gt 0 ]; do sleep 1; done", { never: true }],
  ["while [ $(ss -Hltnp | grep -v -E 'envoy|pilot-agent' | wc -l) -ne 0 ]; do sleep 1; done", { never: false }],
  ["until [ $(netstat -lnt | grep -v ':15000' | grep -c LISTEN) -eq 0 ]; do sleep 1; done", { never: true }],
  ['while [ $(ss -ltn | grep :8080 | grep -v 15000 | wc -l) -gt 0 ]; do sleep 1; done', { never: false }],
  // a pattern that backtracks exponentially in a backtracking engine: matched in linear time
  ["while [ $(ss -ltnp | grep -v -E '((.*)*)*(x+x+)+y' | wc -l) -gt 0 ]; do sleep 1; done", { never: true }],
  ['while true; do sleep 1; done', { never: true }],
  ['while :; do echo x; done', { never: true }],
  ['until false; do sleep 5; done', { never: true }],
  ['while sleep 1; do echo tick; done', { never: true }],
  ['while true; do if ! nc -z localhost 8080; then break; fi; sleep 1; done', { never: false }],
  ['while true; do [ -f /var/run/done ] && exit 0; sleep 1; done', { never: false }],
  ["timeout 20 sh -c 'while true; do sleep 1; done'", { never: false, seconds: 20 }],
  ['i=0; while [ $i -lt 30 ]; do sleep 2; i=$((i+1)); done', { never: false, seconds: 60 }],
  ['for i in $(seq 1 20); do sleep 1; done', { seconds: 20 }],
  ['for i in 1 2 3; do sleep 5; done', { seconds: 15 }],
  ['sleep 40', { seconds: 40 }],
  ['sleep 1m', { seconds: 60 }],
  ['sleep 5; sleep 10', { seconds: 15 }],
  ['sleep 100 &', { seconds: 0 }],
  ['sleep infinity', { never: true }],
  ['tail -f /dev/null', { never: true }],
  ['pilot-agent wait', { wait: 'blocking' }],
  ['pilot-agent wait &', { wait: 'background' }],
  ['nohup pilot-agent wait > /dev/null 2>&1 &', { wait: 'background' }],
  ['(pilot-agent wait) &', { wait: 'background' }],
  ['curl -s localhost:15021/healthz/ready', { wait: 'single', polls: 15021 }],
  ['curl -s --retry 30 --retry-connrefused localhost:15021/healthz/ready', { wait: 'blocking' }],
  ['until curl -fsS http://127.0.0.1:15021/healthz/ready; do sleep 1; done', { wait: 'blocking', polls: 15021 }],
  ["while [[ \"$(curl -s -o /dev/null -w ''%{http_code}'' localhost:15020/healthz/ready)\" != '200' ]]; do sleep 1; done; start-app", { wait: 'blocking', polls: 15020 }],
  ['until wget -q -O- http://127.0.0.1:15021/healthz/ready; do sleep 1; done &', { wait: 'background' }],
  ['curl -fsS -X POST localhost:15020/quitquitquit', { quits: true, wait: 'none' }],
  ['pilot-agent request POST quitquitquit', { quits: true }],
  ['bash /scripts/run.sh "curl -X POST localhost:15020/quitquitquit"', { quits: false }],
  ['echo curl -X POST localhost:15020/quitquitquit', { quits: false }],
  ['exec python job.py; curl -X POST localhost:15020/quitquitquit', { quits: false }],
  ['python job.py && exec true; curl -X POST localhost:15020/quitquitquit', { quits: true }],
  ['python job.py; exec true; curl -X POST localhost:15020/quitquitquit', { quits: false }],
  ['if false; then curl -X POST localhost:15020/quitquitquit; fi', { quits: false }],
  ['true || curl -X POST localhost:15020/quitquitquit', { quits: false }],
  ['python job.py || curl -X POST localhost:15020/quitquitquit', { quits: true }],
  ["trap 'curl -fsS -X POST localhost:15020/quitquitquit' EXIT; ./job", { quits: true }],
  ["trap 'curl -fsS -X POST localhost:15020/quitquitquit' TERM; ./job", { quits: false }],
  ['python3 -c "import requests; requests.post(\'http://localhost:15020/quitquitquit\')"', { quits: true }],
  ['./job; sh -c "curl -sf -XPOST http://127.0.0.1:15020/quitquitquit"', { quits: true }],
  ['sleep 10 && exec /app/server', { leading: 10 }],
  ['sleep 3', { leading: undefined }],
  ['echo start; sleep 5; exec app', { leading: undefined }],
  ['# only a comment', { wait: 'none', seconds: 0 }],
  ["case $x in a) sleep 3 ;; *) sleep 50 ;; esac", { seconds: 50 }],
  ['f() { while true; do :; done; }; echo defined', { never: false }],
];

describe('analyzeScript', () => {
  for (const [script, e] of rows) {
    it(script, () => {
      const f = analyzeScript(script);
      if (e.wait !== undefined) expect(f.readinessWait).toBe(e.wait);
      if (e.never !== undefined) expect(f.neverEnds !== undefined).toBe(e.never);
      if (e.seconds !== undefined) expect(f.seconds).toBe(e.seconds);
      if (e.udp !== undefined) expect(f.netstatUdpGrepTcp).toBe(e.udp);
      if (e.quits !== undefined) expect(f.quitsProxy).toBe(e.quits);
      if (e.polls !== undefined) expect(f.pollsProxy?.port).toBe(e.polls);
      if ('leading' in e) expect(f.leadingSleep).toBe(e.leading);
    });
  }
});

describe('syntaxError', () => {
  const bad: [string, string][] = [
    ["echo 'draining; sleep 20", "an unclosed ' quote"],
    ['echo "x; sleep 5', 'an unclosed " quote'],
    ['x=$(curl -s localhost:15000/ready; sleep 1', 'an unclosed ( or $('],
    ['while true; do sleep 1', 'a compound command without its `done`'],
    ['if [ -f /var/run/x ]; then sleep 1', 'a compound command without its `fi`'],
    ['echo `date', 'an unclosed ` command substitution'],
    // dash and bash: `Syntax error: "&&" unexpected` (the kubelet: FailedPreStopHook ... exited with 2)
    ['sleep 5\n&& curl -fsS -X POST localhost:15000/drain_listeners', 'a line that begins with `&&` (it belongs at the end of the line before)'],
    ['sleep 5\n|| true', 'a line that begins with `||` (it belongs at the end of the line before)'],
    ['&& sleep 5', '`&&` with no command before it'],
    ['sleep 5 &&', '`&&` with no command after it'],
    ['netstat -plnt | | wc -l', '`|` with no command after it'],
    ['netstat -plnt |', '`|` with no command after it'],
    ['& sleep 5', '`&` with no command before it'],
  ];
  for (const [script, why] of bad) it(`rejects: ${script}`, () => expect(syntaxError(script)).toBe(why));
  const good = [
    "echo 'draining'; sleep 20",
    'echo "it\'s $(date +%s)"; sleep 1',
    "case $x in a) sleep 1 ;; *) sleep 2 ;; esac",
    'i=$((i+1)); [[ $a =~ (x|y) ]] && echo ok',
    "echo ${x#*/} # it's a comment",
    "cat <<EOF\nit's here\nEOF",
    'while true; do sleep 1; done',
    'sleep 5 &&\n  curl -fsS -X POST localhost:15000/drain_listeners',
    'sleep 5 \\\n  && curl -fsS -X POST localhost:15000/drain_listeners',
    'netstat -plnt |\n  grep -v envoy | wc -l && echo done || echo failed',
    'sleep 100 & wait',
  ];
  for (const script of good) it(`accepts: ${script}`, () => expect(syntaxError(script)).toBeUndefined());
  it('leaves nothing else to judge in a rejected script', () => {
    const f = analyzeScript("while true; do sleep 1; done; echo 'x");
    expect(f.syntaxError).toBe("an unclosed ' quote");
    expect(f.neverEnds).toBeUndefined();
  });
});

describe('analyzeArgv', () => {
  it('reads exec arrays without a shell', () => {
    expect(analyzeArgv(['pilot-agent', 'wait']).readinessWait).toBe('blocking');
    expect(analyzeArgv(['sleep', '20']).seconds).toBe(20);
    expect(analyzeArgv(['/bin/sh', '-c', 'sleep 5']).seconds).toBe(5);
    expect(analyzeArgv(['bash', '-ec', 'while true; do sleep 1; done']).neverEnds).toBeDefined();
    expect(analyzeArgv(['/usr/local/bin/pilot-agent', 'request', '--debug-port=15020', 'POST', 'drain']).neverEnds).toBeUndefined();
  });
  it('parses sleep durations', () => {
    expect(sleepSeconds(['1.5'])).toBe(1.5);
    expect(sleepSeconds(['2h'])).toBe(7200);
    expect(sleepSeconds(['$T'])).toBeUndefined();
    expect(sleepSeconds(['infinity'])).toBe(Infinity);
  });
});

describe('listener counts against the sockets of the pod\'s release', () => {
  const envoyOnly: Listeners = { sockets: [['envoy', 15000], ['envoy', 15001]] };
  const withAgent: Listeners = { sockets: [['envoy', 15000], ['envoy', 15001], ['pilot-agent', 15020]], agentWhy: '--statusPort 15020' };
  const loop = 'while [ $(netstat -plunt | grep tcp | grep -v envoy | wc -l | xargs) -ne 0 ]; do sleep 1; done';
  it('envoy alone listens (Istio 1.0 without a status port): the count reaches 0 once the app stops listening', () => {
    expect(analyzeScript(loop, envoyOnly).neverEnds).toBeUndefined();
  });
  it('pilot-agent listens: the count never reaches 0, and the reason names its port as the pod has it', () => {
    const f = analyzeScript(loop, withAgent);
    expect(f.neverEnds).toBeDefined();
    expect(f.unboundedLoops[0]!.reason).toContain('pilot-agent also listens (--statusPort 15020)');
    expect(analyzeScript(loop).unboundedLoops[0]!.reason).toContain('pilot-agent also listens (15020)');
  });
  it('a port the release never opens is gone from the start', () => {
    const wait = 'while netstat -lnt | grep -q :15021; do sleep 1; done';
    expect(analyzeScript(wait).neverEnds).toBeDefined();
    expect(analyzeScript(wait, envoyOnly).neverEnds).toBeUndefined();
  });
});
