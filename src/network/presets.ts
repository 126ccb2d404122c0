/** The presets live in core (the platform chains need them below the network layer); re-exported here. */
export * from '../core/presets.js'
