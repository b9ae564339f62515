"""A small stand-in for RLTest, enough to run memtier_benchmark's tests/ as written.

RLTest itself is not a Debian package and PyPI is not reachable from the machines this
project runs on, so this package provides only what memtier's tests use: `python3 -m RLTest`
with the options memtier's tests/run_tests.sh passes, test discovery (test*.py, functions
test*), an `env` argument with assertions, skipOnCluster, the master nodes and a redis-py
connection to each, standalone / 3-shard OSS cluster / TLS servers. Each test gets fresh
servers (RLTest's default) and runs in its own process group, bounded in time.
"""
