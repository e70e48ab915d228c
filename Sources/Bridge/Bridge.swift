// Bridge layer; see the files beside this one.
