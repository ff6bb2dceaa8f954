"""The product's edges: the HTTP service and phone page (:mod:`api.main`) and the `cribcount`
command line (:mod:`api.cli`), both over :mod:`vision` (photo -> cards) and :mod:`scorer` (the rules)."""
