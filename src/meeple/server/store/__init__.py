"""Storage: the database engine, its models and migrations, the repository, the match
store the masters write through, and the account rules the accounts table keeps."""
