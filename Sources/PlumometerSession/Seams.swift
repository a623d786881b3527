// The seams every session runs over (PlumometerSeams), re-exported so that what imports the session sees them too.
@_exported public import PlumometerSeams
