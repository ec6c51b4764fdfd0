"""Example engines for the conformance suites (see docs/conformance.md)."""
