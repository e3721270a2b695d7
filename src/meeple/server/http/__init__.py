"""The HTTP face: the app factory, its middleware and guards, the routes (one router per
resource), their dependencies and the rate limits."""
