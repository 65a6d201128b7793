"""Fixture: never reads its stdin and never answers (verdict: timeout)."""
import time

time.sleep(10**6)
