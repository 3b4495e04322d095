// The thread a library call is repeated on when it ran out of the JavaScript stack (guard/syncstack.ts,
// go/text/template/template.ts): it builds the caller's template set again and answers the same parse or execute.

import { serveSyncStack } from './guard/syncstack.js';
import { answerOnBigStack } from './go/text/template/template.js';
import { buildFuncSet, type FuncSetName } from './funcs/index.js';

serveSyncStack((request) => answerOnBigStack(request, (name, opts, bound) => buildFuncSet(name as FuncSetName, opts, bound)));
