"""The audit of a database: hash chains, meters, settlements, and every chip reconciled
with the engine."""
