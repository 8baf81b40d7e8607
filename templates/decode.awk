# placeholder: replaced by the real decoder
