enum ReelArgumentsBootstrap {}
