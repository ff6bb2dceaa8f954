"""One router per area: a photo counted (count), typed cards counted (score), the play (peg), what to
throw to the crib (discard), counting drills (practice),
a whole table at the show refereed (referee), and liveness and readiness (health)."""
