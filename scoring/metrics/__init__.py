"""Text metrics (BLEU, ROUGE, SARI, BERTScore, AlignScore, MEDCON) behind one registry."""
