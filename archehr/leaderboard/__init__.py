"""Leaderboards, pairwise comparisons and HTML reports built on the scorer (`archehr_scoring`).

Imports the data model and the scorer only, never system code (classifiers, generators, LLMs):
a leaderboard must mean the same thing whatever produced the runs.
"""
