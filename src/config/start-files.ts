import { readBootstrap, type Bootstrap } from '../auth/bootstrap-file.js';
import { readControlsFile, type ControlsFile } from '../controls/controls-file.js';
import type { GatewayConfig } from './gateway-config.js';

/** The files a start reads besides the environment: GATEWAY_BOOTSTRAP and GATEWAY_CONTROLS, validated. */
export interface StartFiles {
  bootstrap?: Bootstrap;
  controls?: ControlsFile;
}

/** Reads the files the settings name; errors name the setting, the file and the bad entry. */
export function readStartFiles(config: Pick<GatewayConfig, 'bootstrapPath' | 'controlsPath'>): StartFiles {
  return {
    ...(config.bootstrapPath ? { bootstrap: readBootstrap(config.bootstrapPath) } : {}),
    ...(config.controlsPath ? { controls: readControlsFile(config.controlsPath) } : {}),
  };
}
