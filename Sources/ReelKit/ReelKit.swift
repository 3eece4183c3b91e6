// ReelKit is the library apps import: it re-exports every layer, so `import ReelKit` gives the
// compressor, the analyzer, media probing and reels.
@_exported import ReelAnalysis
@_exported import ReelCompression
@_exported import ReelFaces
@_exported import ReelFrameReduction
@_exported import ReelMedia
@_exported import ReelSupport
