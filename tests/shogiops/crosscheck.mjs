// Placeholder replaced by the cross-check script.
process.exit(77);
