"""Maschinen Krieger (system key ``mak``): the ground war on geomorphic hex boards."""
