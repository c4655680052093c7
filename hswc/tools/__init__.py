"""Command-line entry points: hswc-opt and hswc-run."""
