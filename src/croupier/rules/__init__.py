"""Rules Submissions (their shape and every problem at once), progressive meters, and
the compliance matrix."""
