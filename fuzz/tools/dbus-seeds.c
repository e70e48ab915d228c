/* Writes the seed corpus of the DBusUnmarshal fuzz target: messages shaped like the ones BlueZ and the
 * bus send gatt2mqtt, built and marshalled with libdbus itself (dbus_message_marshal), so the seeds do
 * not depend on the code under test. Run by fuzz/tools/make-corpus:
 *   cc dbus-seeds.c $(pkg-config --cflags --libs dbus-1) -o dbus-seeds && ./dbus-seeds <dir>
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;
static dbus_uint32_t serial = 1;

static void die(const char *what) {
    fprintf(stderr, "dbus-seeds: %s\n", what);
    exit(1);
}

static void save(DBusMessage *message, const char *name) {
    char *bytes = NULL;
    int length = 0;
    if (dbus_message_get_serial(message) == 0) dbus_message_set_serial(message, serial++);
    if (!dbus_message_marshal(message, &bytes, &length)) die("dbus_message_marshal failed");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(bytes, 1, (size_t)length, file) != (size_t)length || fclose(file) != 0) die(path);
    /* The same message as the target's second input form: signature, NUL, body (the last
     * body-length bytes of a little-endian message; the length is the u32 at offset 4). */
    const char *signature = dbus_message_get_signature(message);
    unsigned body = (unsigned char)bytes[4] | (unsigned char)bytes[5] << 8 | (unsigned char)bytes[6] << 16 |
                    (unsigned)(unsigned char)bytes[7] << 24;
    snprintf(path, sizeof path, "%s/%s.body", dir, name);
    file = fopen(path, "wb");
    if (!file || bytes[0] != 'l' || fwrite(signature, 1, strlen(signature) + 1, file) != strlen(signature) + 1 ||
        fwrite(bytes + length - body, 1, body, file) != body || fclose(file) != 0)
        die(path);
    dbus_free(bytes);
    dbus_message_unref(message);
}

static DBusMessage *method_return(void) {
    DBusMessage *message = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
    dbus_message_set_reply_serial(message, 7);
    dbus_message_set_sender(message, ":1.4");
    dbus_message_set_destination(message, ":1.42");
    return message;
}

/* Basic values and containers ------------------------------------------------------------------- */

static void append_string(DBusMessageIter *iter, int type, const char *text) {
    if (!dbus_message_iter_append_basic(iter, type, &text)) die("append string");
}

static void append_bytes(DBusMessageIter *iter, const unsigned char *bytes, int count) {
    DBusMessageIter array;
    dbus_message_iter_open_container(iter, DBUS_TYPE_ARRAY, "y", &array);
    dbus_message_iter_append_fixed_array(&array, DBUS_TYPE_BYTE, &bytes, count);
    dbus_message_iter_close_container(iter, &array);
}

static void append_strings(DBusMessageIter *iter, const char *const *texts, int count) {
    DBusMessageIter array;
    dbus_message_iter_open_container(iter, DBUS_TYPE_ARRAY, "s", &array);
    for (int i = 0; i < count; i++) append_string(&array, DBUS_TYPE_STRING, texts[i]);
    dbus_message_iter_close_container(iter, &array);
}

/* One `{sv}` entry; `kind` picks the variant's content. */
enum kind { STRING, OBJECT_PATH, BOOLEAN, INT16, UINT16, BYTES, STRINGS };

static void dict_entry(DBusMessageIter *dict, const char *key, enum kind kind, const void *value, int count) {
    static const char *signatures[] = {"s", "o", "b", "n", "q", "ay", "as"};
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_string(&entry, DBUS_TYPE_STRING, key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signatures[kind], &variant);
    switch (kind) {
    case STRING: append_string(&variant, DBUS_TYPE_STRING, value); break;
    case OBJECT_PATH: append_string(&variant, DBUS_TYPE_OBJECT_PATH, value); break;
    case BOOLEAN: dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, value); break;
    case INT16: dbus_message_iter_append_basic(&variant, DBUS_TYPE_INT16, value); break;
    case UINT16: dbus_message_iter_append_basic(&variant, DBUS_TYPE_UINT16, value); break;
    case BYTES: append_bytes(&variant, value, count); break;
    case STRINGS: append_strings(&variant, (const char *const *)value, count); break;
    }
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* Properties of BlueZ objects, as `a{sv}` ------------------------------------------------------- */

static const dbus_bool_t yes = TRUE, no = FALSE;

static void adapter_properties(DBusMessageIter *dict) {
    static const char *uuids[] = {"00001801-0000-1000-8000-00805f9b34fb", "0000110e-0000-1000-8000-00805f9b34fb"};
    dict_entry(dict, "Address", STRING, "00:11:22:33:44:50", 0);
    dict_entry(dict, "Name", STRING, "hall", 0);
    dict_entry(dict, "Powered", BOOLEAN, &yes, 0);
    dict_entry(dict, "Discovering", BOOLEAN, &no, 0);
    dict_entry(dict, "UUIDs", STRINGS, uuids, 2);
}

static void device_properties(DBusMessageIter *dict) {
    static const char *uuids[] = {"0000fe51-0000-1000-8000-00805f9b34fb", "65333333-a115-11e2-9e9a-0800200ca100"};
    static const dbus_int16_t rssi = -58;
    static const dbus_uint16_t appearance = 0x0140;
    dict_entry(dict, "Address", STRING, "00:11:22:33:44:51", 0);
    dict_entry(dict, "Name", STRING, "naviGuertel-SIM", 0);
    dict_entry(dict, "Adapter", OBJECT_PATH, "/org/bluez/hci0", 0);
    dict_entry(dict, "RSSI", INT16, &rssi, 0);
    dict_entry(dict, "Appearance", UINT16, &appearance, 0);
    dict_entry(dict, "Paired", BOOLEAN, &no, 0);
    dict_entry(dict, "ServicesResolved", BOOLEAN, &yes, 0);
    dict_entry(dict, "UUIDs", STRINGS, uuids, 2);
    /* ManufacturerData: a{qv}, each value an `ay`. */
    DBusMessageIter entry, variant, data, item, inner;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_string(&entry, DBUS_TYPE_STRING, "ManufacturerData");
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "a{qv}", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{qv}", &data);
    dbus_message_iter_open_container(&data, DBUS_TYPE_DICT_ENTRY, NULL, &item);
    dbus_uint16_t company = 0x0059;
    dbus_message_iter_append_basic(&item, DBUS_TYPE_UINT16, &company);
    dbus_message_iter_open_container(&item, DBUS_TYPE_VARIANT, "ay", &inner);
    static const unsigned char payload[] = {0x01, 0x02, 0x03, 0x04};
    append_bytes(&inner, payload, sizeof payload);
    dbus_message_iter_close_container(&item, &inner);
    dbus_message_iter_close_container(&data, &item);
    dbus_message_iter_close_container(&variant, &data);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static void characteristic_properties(DBusMessageIter *dict) {
    static const char *flags[] = {"notify", "write"};
    static const unsigned char value[] = {0x01, 0x03};
    dict_entry(dict, "UUID", STRING, "0000fe02-0000-1000-8000-00805f9b34fb", 0);
    dict_entry(dict, "Service", OBJECT_PATH, "/org/bluez/hci0/dev_00_11_22_33_44_51/service000c", 0);
    dict_entry(dict, "Value", BYTES, value, 2);
    dict_entry(dict, "Flags", STRINGS, flags, 2);
    dict_entry(dict, "Notifying", BOOLEAN, &yes, 0);
}

/* `{sa{sv}}`: one interface with its properties. */
static void interface_entry(DBusMessageIter *interfaces, const char *name, void (*properties)(DBusMessageIter *)) {
    DBusMessageIter entry, dict;
    dbus_message_iter_open_container(interfaces, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_string(&entry, DBUS_TYPE_STRING, name);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (properties) properties(&dict);
    dbus_message_iter_close_container(&entry, &dict);
    dbus_message_iter_close_container(interfaces, &entry);
}

/* `{oa{sa{sv}}}`: one object. */
static void object_entry(DBusMessageIter *objects, const char *path, const char *interface,
                         void (*properties)(DBusMessageIter *)) {
    DBusMessageIter entry, interfaces;
    dbus_message_iter_open_container(objects, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    append_string(&entry, DBUS_TYPE_OBJECT_PATH, path);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_ARRAY, "{sa{sv}}", &interfaces);
    interface_entry(&interfaces, interface, properties);
    interface_entry(&interfaces, "org.freedesktop.DBus.Properties", NULL);
    dbus_message_iter_close_container(&entry, &interfaces);
    dbus_message_iter_close_container(objects, &entry);
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: dbus-seeds <directory>");
    dir = argv[1];
    DBusMessage *message;
    DBusMessageIter iter, container, sub;

    /* ObjectManager.GetManagedObjects reply: a{oa{sa{sv}}}. */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{oa{sa{sv}}}", &container);
    object_entry(&container, "/org/bluez/hci0", "org.bluez.Adapter1", adapter_properties);
    object_entry(&container, "/org/bluez/hci0/dev_00_11_22_33_44_51", "org.bluez.Device1", device_properties);
    object_entry(&container, "/org/bluez/hci0/dev_00_11_22_33_44_51/service000c/char000d",
                 "org.bluez.GattCharacteristic1", characteristic_properties);
    dbus_message_iter_close_container(&iter, &container);
    save(message, "get-managed-objects-reply");

    /* An empty GetManagedObjects reply. */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{oa{sa{sv}}}", &container);
    dbus_message_iter_close_container(&iter, &container);
    save(message, "get-managed-objects-empty");

    /* ObjectManager.InterfacesAdded: o a{sa{sv}}. */
    message = dbus_message_new_signal("/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded");
    dbus_message_set_sender(message, ":1.4");
    dbus_message_iter_init_append(message, &iter);
    append_string(&iter, DBUS_TYPE_OBJECT_PATH, "/org/bluez/hci0/dev_00_11_22_33_44_51");
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sa{sv}}", &container);
    interface_entry(&container, "org.bluez.Device1", device_properties);
    dbus_message_iter_close_container(&iter, &container);
    save(message, "interfaces-added");

    /* ObjectManager.InterfacesRemoved: o as. */
    message = dbus_message_new_signal("/", "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved");
    dbus_message_iter_init_append(message, &iter);
    append_string(&iter, DBUS_TYPE_OBJECT_PATH, "/org/bluez/hci0/dev_00_11_22_33_44_51");
    static const char *removed[] = {"org.bluez.Device1", "org.freedesktop.DBus.Properties"};
    append_strings(&iter, removed, 2);
    save(message, "interfaces-removed");

    /* Properties.PropertiesChanged of a notifying characteristic: s a{sv} as (belt keep-alive 01 03). */
    message = dbus_message_new_signal("/org/bluez/hci0/dev_00_11_22_33_44_51/service000c/char000f",
                                      "org.freedesktop.DBus.Properties", "PropertiesChanged");
    dbus_message_iter_init_append(message, &iter);
    append_string(&iter, DBUS_TYPE_STRING, "org.bluez.GattCharacteristic1");
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &container);
    static const unsigned char keep_alive[] = {0x01, 0x03};
    dict_entry(&container, "Value", BYTES, keep_alive, 2);
    dbus_message_iter_close_container(&iter, &container);
    static const char *invalidated[] = {"Notifying"};
    append_strings(&iter, invalidated, 1);
    save(message, "properties-changed-value");

    /* GattCharacteristic1.ReadValue reply: ay (belt orientation, 16 bytes). */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    static const unsigned char orientation[] = {0x02, 0x87, 0x00, 0xB4, 0x00, 0xFB, 0xFF, 0x0C,
                                                0x00, 0x0A, 0x00, 0x03, 0x02, 0x01, 0xFF, 0x00};
    append_bytes(&iter, orientation, sizeof orientation);
    save(message, "read-value-reply");

    /* An empty `ay`. */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    append_bytes(&iter, orientation, 0);
    save(message, "read-value-empty");

    /* GattCharacteristic1.WriteValue call, as the bridge sends it: ay a{sv}. */
    message = dbus_message_new_method_call("org.bluez", "/org/bluez/hci0/dev_00_11_22_33_44_51/service000c/char0012",
                                           "org.bluez.GattCharacteristic1", "WriteValue");
    dbus_message_iter_init_append(message, &iter);
    static const unsigned char mode_app[] = {0x01, 0x81, 0x03, 0x00};
    append_bytes(&iter, mode_app, sizeof mode_app);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &container);
    static const dbus_uint16_t offset = 0;
    dict_entry(&container, "offset", UINT16, &offset, 0);
    dict_entry(&container, "type", STRING, "request", 0);
    dbus_message_iter_close_container(&iter, &container);
    save(message, "write-value-call");

    /* Properties.Get reply: v holding a variant holding a string (nesting), then a struct of every basic type. */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_VARIANT, "v", &container);
    dbus_message_iter_open_container(&container, DBUS_TYPE_VARIANT, "s", &sub);
    append_string(&sub, DBUS_TYPE_STRING, "naviGuertel");
    dbus_message_iter_close_container(&container, &sub);
    dbus_message_iter_close_container(&iter, &container);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_STRUCT, NULL, &container);
    unsigned char y = 0xFF;
    dbus_bool_t b = TRUE;
    dbus_int16_t n = -2;
    dbus_uint16_t q = 65535;
    dbus_int32_t i = -70000;
    dbus_uint32_t u = 4000000000u;
    dbus_int64_t x = -5000000000LL;
    dbus_uint64_t t = 18000000000000000000ULL;
    double d = -0.5;
    dbus_message_iter_append_basic(&container, DBUS_TYPE_BYTE, &y);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_BOOLEAN, &b);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_INT16, &n);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_UINT16, &q);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_INT32, &i);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_UINT32, &u);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_INT64, &x);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_UINT64, &t);
    dbus_message_iter_append_basic(&container, DBUS_TYPE_DOUBLE, &d);
    append_string(&container, DBUS_TYPE_STRING, "text");
    append_string(&container, DBUS_TYPE_OBJECT_PATH, "/org/bluez");
    append_string(&container, DBUS_TYPE_SIGNATURE, "a{sv}");
    dbus_message_iter_close_container(&iter, &container);
    save(message, "variant-and-struct");

    /* Arrays of structs, of arrays and of variants: a(ii) aay av. */
    message = method_return();
    dbus_message_iter_init_append(message, &iter);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "(ii)", &container);
    for (dbus_int32_t k = 0; k < 2; k++) {
        dbus_message_iter_open_container(&container, DBUS_TYPE_STRUCT, NULL, &sub);
        dbus_message_iter_append_basic(&sub, DBUS_TYPE_INT32, &k);
        dbus_message_iter_append_basic(&sub, DBUS_TYPE_INT32, &k);
        dbus_message_iter_close_container(&container, &sub);
    }
    dbus_message_iter_close_container(&iter, &container);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "ay", &container);
    append_bytes(&container, keep_alive, 2);
    append_bytes(&container, mode_app, 0);
    dbus_message_iter_close_container(&iter, &container);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "v", &container);
    dbus_message_iter_open_container(&container, DBUS_TYPE_VARIANT, "d", &sub);
    dbus_message_iter_append_basic(&sub, DBUS_TYPE_DOUBLE, &d);
    dbus_message_iter_close_container(&container, &sub);
    dbus_message_iter_open_container(&container, DBUS_TYPE_VARIANT, "ay", &sub);
    append_bytes(&sub, keep_alive, 2);
    dbus_message_iter_close_container(&container, &sub);
    dbus_message_iter_close_container(&iter, &container);
    save(message, "arrays-of-structs-arrays-variants");

    /* An error reply: s. */
    message = dbus_message_new(DBUS_MESSAGE_TYPE_ERROR);
    dbus_message_set_error_name(message, "org.bluez.Error.Failed");
    dbus_message_set_reply_serial(message, 9);
    dbus_message_iter_init_append(message, &iter);
    append_string(&iter, DBUS_TYPE_STRING, "Operation failed with ATT error: 0x0e");
    save(message, "error-reply");

    /* A call without arguments (Introspect). */
    message = dbus_message_new_method_call("org.bluez", "/", "org.freedesktop.DBus.Introspectable", "Introspect");
    save(message, "introspect-call");

    /* The bus's NameOwnerChanged: s s s. */
    message = dbus_message_new_signal("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged");
    dbus_message_set_sender(message, "org.freedesktop.DBus");
    dbus_message_iter_init_append(message, &iter);
    append_string(&iter, DBUS_TYPE_STRING, "org.bluez");
    append_string(&iter, DBUS_TYPE_STRING, ":1.4");
    append_string(&iter, DBUS_TYPE_STRING, "");
    save(message, "name-owner-changed");
    return 0;
}
