"""hswc's passes, one per file, named as on the command line."""
