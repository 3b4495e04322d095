// `sidecar-render completion bash|zsh|fish` and `sidecar-render version`: what users expect of a
// command-line tool. The completion scripts are made from the program's own commands and options, so
// they never fall behind a new flag; an option with a fixed list of values (--mode, -o, --fail-on, ...)
// completes to that command's list.

import { Argument, type Command, type Option } from 'commander';
import { KNOWN_RELEASES } from '../istio/version.js';
import { VERSION } from '../version.js';
import { HELM_VERSION } from '../helm/objects.js';
import { choicesOf } from './options.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Spec {
  /** `render`, or `golden check` for a subcommand. */
  path: string[];
  description: string;
  /** Values the command's arguments take, when they are a fixed list. */
  values: readonly string[];
  options: Array<{ long?: string; short?: string; takesValue: boolean; choices?: readonly string[]; description: string }>;
}

function visible(o: Option): boolean {
  return !(o as Option & { hidden?: boolean }).hidden;
}

function specs(program: Command): Spec[] {
  const out: Spec[] = [];
  const walk = (c: Command, path: string[]) => {
    for (const sub of c.commands) {
      const p = [...path, sub.name()];
      out.push({
        path: p,
        description: sub.description(),
        values: sub.registeredArguments.flatMap((a) => a.argChoices ?? []),
        options: sub.options.filter(visible).map((o) => {
          const choices = choicesOf(o);
          return {
            ...(o.long ? { long: o.long } : {}),
            ...(o.short ? { short: o.short } : {}),
            takesValue: o.required || o.optional,
            ...(choices ? { choices } : {}),
            description: o.description,
          };
        }),
      });
      walk(sub, p);
    }
  };
  walk(program, []);
  return out;
}

function oneLineText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function bash(program: Command): string {
  const all = specs(program);
  const top = all.filter((s) => s.path.length === 1).map((s) => s.path[0]);
  const cases = all
    .map((s) => {
      const sub = all.filter((x) => x.path.length === s.path.length + 1 && x.path.slice(0, -1).join(' ') === s.path.join(' ')).map((x) => x.path.at(-1));
      const words = [...sub, ...s.values, ...s.options.flatMap((o) => [o.long, o.short].filter(Boolean))].join(' ');
      return `    '${s.path.join(' ')}') words='${words}' ;;`;
    })
    .join('\n');
  // per command, the values of each option that has a fixed list, by its long and short name
  const values = all
    .flatMap((s) =>
      s.options
        .filter((o) => o.choices)
        .map((o) => `      ${[o.long, o.short].filter(Boolean).map((n) => `'${s.path.join(' ')} ${n}'`).join('|')}) COMPREPLY=($(compgen -W '${o.choices!.join(' ')}' -- "$cur")); return ;;`),
    )
    .join('\n');
  return `# sidecar-render completion for bash: source <(sidecar-render completion bash)
_sidecar_render() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path='' i w words
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    [[ $w == -* ]] && continue
    case "\${path:+$path }$w" in
${all.map((s) => `      '${s.path.join(' ')}') path='${s.path.join(' ')}' ;;`).join('\n')}
    esac
  done
  # bash splits --mode=kube at the '=': the option is the word before it
  if [[ $cur == = ]]; then
    cur=''
  elif [[ $prev == = && COMP_CWORD -ge 2 ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  # the value of an option with a fixed list (a word starting with - is the next option: --native-sidecars takes none)
  if [[ $cur != -* ]]; then
    case "$path $prev" in
${values}
    esac
  fi
  case "$path" in
    '') words='${[...top, '--help', '--version'].join(' ')}' ;;
${cases}
  esac
  if [[ $cur == -* || -z $path ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _sidecar_render sidecar-render
`;
}

function zsh(program: Command): string {
  // zsh runs the bash function through bashcompinit, so both shells complete the same words
  return `#compdef sidecar-render
# sidecar-render completion for zsh: source <(sidecar-render completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(program)}`;
}

function fishQuote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fish(program: Command): string {
  const all = specs(program);
  const lines = ['# sidecar-render completion for fish: sidecar-render completion fish | source', 'complete -c sidecar-render -f'];
  for (const s of all) {
    const parent = s.path.slice(0, -1);
    const cond = parent.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${parent.at(-1)}`;
    lines.push(`complete -c sidecar-render -n ${fishQuote(cond)} -a ${s.path.at(-1)} -d ${fishQuote(oneLineText(s.description))}`);
    if (s.values.length) lines.push(`complete -c sidecar-render -n ${fishQuote(`__fish_seen_subcommand_from ${s.path.at(-1)}`)} -a ${fishQuote(s.values.join(' '))}`);
  }
  for (const s of all) {
    for (const o of s.options) {
      const parts = ['complete -c sidecar-render', `-n ${fishQuote(`__fish_seen_subcommand_from ${s.path.at(-1)}`)}`];
      if (o.long) parts.push(`-l ${o.long.replace(/^--/, '')}`);
      if (o.short) parts.push(`-s ${o.short.replace(/^-/, '')}`);
      if (o.choices) parts.push(`-x -a ${fishQuote(o.choices.join(' '))}`);
      else if (o.takesValue) parts.push('-r -F');
      parts.push(`-d ${fishQuote(oneLineText(o.description))}`);
      lines.push(parts.join(' '));
    }
  }
  return lines.join('\n') + '\n';
}

export function completionScript(program: Command, shell: Shell): string {
  return shell === 'bash' ? bash(program) : shell === 'zsh' ? zsh(program) : fish(program);
}

/** `completion SHELL`; `full` builds the program with every command (this one alone is loaded to run). */
export function completionCommand(program: Command, full: () => Promise<Command>): void {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .addArgument(new Argument('<shell>', SHELLS.join('|')).choices(SHELLS))
    .addHelpText('after', '\nbash/zsh: source <(sidecar-render completion bash)   fish: sidecar-render completion fish | source\n')
    .action(async (shell: Shell) => {
      process.stdout.write(completionScript(await full(), shell));
    });
}

export function versionCommand(program: Command): void {
  program
    .command('version')
    .description('print the version, the Istio releases whose injection is modelled and the Helm whose `helm template` chart follows')
    .action(() => {
      process.stdout.write(`sidecar-render ${VERSION}\nIstio releases: ${KNOWN_RELEASES.join(', ')}\nHelm: ${HELM_VERSION.Version} (chart renders as its helm template)\n`);
    });
}
