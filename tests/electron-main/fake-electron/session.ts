// session (electronjs.org/docs/latest/api/session)
import type { WebContents } from './windows';

type PermissionRequestHandler = (wc: WebContents, permission: string, callback: (granted: boolean) => void, details: Record<string, unknown>) => void;
type PermissionCheckHandler = (wc: WebContents | null, permission: string, requestingOrigin: string, details: Record<string, unknown>) => boolean;
type DevicePermissionHandler = (details: Record<string, unknown>) => boolean;

class FakeSession {
  permissionRequest: PermissionRequestHandler | null = null;
  permissionCheck: PermissionCheckHandler | null = null;
  devicePermission: DevicePermissionHandler | null = null;

  // electronjs.org/docs/latest/api/session#sessetpermissionrequesthandlerhandler: "Sets the handler which
  // can be used to respond to permission requests for the session. Calling callback(true) will allow the
  // permission and callback(false) will reject it."
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequest = handler;
  }
  // electronjs.org/docs/latest/api/session#sessetpermissioncheckhandlerhandler: "Sets the handler which can
  // be used to respond to permission checks for the session. Returning true will allow the permission and
  // false will reject it."
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheck = handler;
  }
  // electronjs.org/docs/latest/api/session#sessetdevicepermissionhandlerhandler: "Sets the handler which can
  // be used to respond to device permission checks for the session. Returning true will allow the device to be permitted"
  setDevicePermissionHandler(handler: DevicePermissionHandler | null): void {
    this.devicePermission = handler;
  }
}

export const session = {
  // electronjs.org/docs/latest/api/session#sessiondefaultsession: "A Session object, the default session object of the app."
  defaultSession: new FakeSession(),
};
