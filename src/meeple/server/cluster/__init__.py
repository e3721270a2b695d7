"""Many workers: claims of matches, leases, and frames forwarded between workers over
Redis."""
