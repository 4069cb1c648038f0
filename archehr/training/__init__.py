"""Training and rebuilding models: the layer above the model packages (`relevance`, `align`).

The model packages hold what a system needs at prediction time (features, model files, loaders); the recipes that
fit them on labelled releases live here, so that a recipe may use several model packages (the st4 aligner's
recipe refits a relevance model out of fold) without those packages importing each other. Every data location is
an argument: defaults (the bundled demo release, the synthetic release) are resolved by the caller (the CLI, a
benchmark).
"""
