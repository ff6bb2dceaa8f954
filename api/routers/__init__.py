"""One router per area: the photo (count), typed cards (score), the play (peg), health."""
