export function genFuncsCase(r, id) { return { name: `f${id}`, template: '{{ 1 }}' }; }
