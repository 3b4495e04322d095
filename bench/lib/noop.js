// An empty program: the cold start of node itself, the floor under the CLI case (e).
