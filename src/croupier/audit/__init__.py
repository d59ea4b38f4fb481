"""The audit of a database: hash chains, meters, settlements (:mod:`croupier.audit.chains`), and
every chip reconciled with the engine (:mod:`croupier.audit.reconcile`).

The package's public face is :func:`verify` and :func:`verify_deal` with their reports."""

from croupier.audit.chains import AuditReport, DealCheck, Finding, verify, verify_deal

__all__ = ["AuditReport", "DealCheck", "Finding", "verify", "verify_deal"]
