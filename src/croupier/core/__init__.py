"""Value types and the plumbing every layer uses: cards, cents and odds, the error tree,
frozen containers, argument checks, progress reports, play modes, safe reading of the files
users write and their shapes."""
