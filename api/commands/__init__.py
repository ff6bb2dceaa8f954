"""The `cribcount` subcommands, a module per group (:mod:`api.cli` assembles them)."""
