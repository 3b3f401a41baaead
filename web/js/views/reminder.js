// A reminder you asked for (SPEC §4a), on #me: opt-in Web Push at an hour (Central) before
// midnight, sent only while the day's Daily is unplayed; off in one tap. The browser's push
// subscription (PushManager, with the server's VAPID key from GET /me/reminder) goes to PUT
// /me/reminder; "Turn off" sends DELETE /me/reminder and drops the subscription. web/sw.js shows
// the notification. What the server holds is the store's `reminder`.

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { get, set, subscribe } from "../store.js";

const hourText = (hour) => `${hour % 12 || 12}:00 ${hour < 12 ? "am" : "pm"}`;

/** A base64url string as the bytes PushManager.subscribe's applicationServerKey takes. */
function keyBytes(text) {
  const raw = atob(text.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameBytes(buffer, bytes) {
  const held = buffer ? new Uint8Array(buffer) : new Uint8Array();
  return held.length === bytes.length && held.every((byte, i) => byte === bytes[i]);
}

function show(hour) {
  const on = hour !== null && hour !== undefined;
  $("reminder-off").hidden = !on;
  $("reminder-state").textContent = on
    ? `On: at ${hourText(hour)} Central, only on days you have not played yet.`
    : "Off. We can remind you once a day, only if you have not played yet.";
  if (on) $("reminder-hour").value = String(hour);
}

async function load() {
  if (get("view") !== "me" || !get("token")) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  $("reminder-form").hidden = true; // until the server's key is here
  $("reminder").hidden = false;
  if (!supported) return say($("reminder-status"), "This browser cannot show reminders.");
  const reply = await api("GET", "/me/reminder", undefined, { auth: true });
  if (!ok(reply)) return say($("reminder-status"), "Reminders are not available: " + problem(reply), "bad");
  set({ reminder: reply.body });
  $("reminder-form").hidden = false;
  show(reply.body.hour);
}

async function turnOn(event) {
  event.preventDefault();
  const hour = Number($("reminder-hour").value);
  if ((await Notification.requestPermission()) !== "granted") {
    return say($("reminder-status"), "Notifications are blocked for this site: allow them to get reminders.", "bad");
  }
  let subscription;
  try {
    const registration = await navigator.serviceWorker.ready;
    const key = keyBytes(get("reminder") ? get("reminder").application_server_key : "");
    subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameBytes(subscription.options && subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe(); // made with an older VAPID key: the push service would refuse its pushes
      subscription = null;
    }
    subscription = subscription || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  } catch {
    return say($("reminder-status"), "This browser could not subscribe to reminders. Try again later.", "bad");
  }
  const reply = await api("PUT", "/me/reminder", { subscription: subscription.toJSON(), hour }, { auth: true });
  if (!ok(reply)) return say($("reminder-status"), "Reminder not saved: " + problem(reply), "bad");
  set({ reminder: { ...get("reminder"), hour: reply.body.hour } });
  show(reply.body.hour);
  say($("reminder-status"), `Reminder on at ${hourText(hour)} Central.`);
}

async function turnOff() {
  const reply = await api("DELETE", "/me/reminder", undefined, { auth: true });
  if (!ok(reply)) return say($("reminder-status"), "Reminder not turned off: " + problem(reply), "bad");
  set({ reminder: { ...get("reminder"), hour: null } });
  show(null);
  say($("reminder-status"), "Reminders off.");
  try {
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) await subscription.unsubscribe();
  } catch {
    // the server holds nothing any more: a subscription left in the browser is never used
  }
}

export function bindReminder() {
  const select = $("reminder-hour");
  for (let hour = 0; hour < 24; hour += 1) select.append(element("option", { value: String(hour) }, hourText(hour)));
  select.value = "19";
  $("reminder-form").addEventListener("submit", turnOn);
  $("reminder-off").addEventListener("click", turnOff);
  subscribe(["view", "token"], load);
}
