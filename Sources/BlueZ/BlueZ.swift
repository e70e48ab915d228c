// BlueZ layer; see the files beside this one.
