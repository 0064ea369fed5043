print("highlight-ls")
