export function genYamlCase(r, id) { return { name: `y${id}`, template: '{{ 1 }}' }; }
