/** A configuration that names engines the registry cannot open together: refused at start-up. */
export class EngineConfigurationError extends Error {
  override readonly name = 'EngineConfigurationError';
}
