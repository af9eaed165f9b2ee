"""Playing at a terminal: the two-player game (:mod:`.app`) and the chouette (:mod:`.chouette`)."""
