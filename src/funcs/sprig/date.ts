import { type FuncMap } from "../../template/value.js"; import type { SprigContext } from "./util.js"; export function dateFuncs(_ctx: SprigContext): FuncMap { return Object.create(null); }
