"""Exact analysis: hand counts, par sheets, strategy solvers and simulation."""
